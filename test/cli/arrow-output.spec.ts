import { arrowPathFor } from '../../src/cli/arrow-output';

it('writes the first result to the file named and the others beside it, by result id', () => {
  expect(arrowPathFor('/tmp/out.arrows', 'sq1', true)).toBe('/tmp/out.arrows');
  expect(arrowPathFor('/tmp/out.arrows', 'sq2', false)).toBe('/tmp/out.sq2.arrows');
  expect(arrowPathFor('result', 'sq3', false)).toBe('result.sq3');
});
