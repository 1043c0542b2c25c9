/** What a text column holds when its type hides it: numbers, sortable or unsortable dates, or words. */
import { textShape } from '../../../src/engine/index/values/text-shape';

it('reads numbers and dates stored as text from a few samples', () => {
  expect(textShape(['10', '9', '1,200', '-3.5', 'N/A'])).toEqual({ kind: 'number' });
  expect(textShape(['2021-03-15', '2020-11-02 10:30:00'])).toEqual({ kind: 'date', sortable: true });
  expect(textShape(['2021/03/15', '2020/11/02'])).toEqual({ kind: 'date', sortable: true });
  expect(textShape(['2021-3-5', '2020-11-02'])).toEqual({ kind: 'date', sortable: false });
  expect(textShape(['15.03.2021', '2.11.2020'])).toEqual({ kind: 'date', sortable: false });
  expect(textShape(['Mar 15, 2021', '2nd November 2020'])).toEqual({ kind: 'date', sortable: false });
});

it('says nothing of words, mixed columns or too few samples', () => {
  expect(textShape(['Newark', '10'])).toBeNull();
  expect(textShape(['March', 'May'])).toBeNull();
  expect(textShape(['10'])).toBeNull();
  expect(textShape(['null', '12'])).toBeNull();
  expect(textShape([10, 12])).toBeNull();
});
