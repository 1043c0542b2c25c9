import { nextSliceEnd } from '../../../src/engine/storage/csv-slices';

describe('nextSliceEnd', () => {
  const groups = [100, 200, 300, 400, 450];

  it('takes whole row groups while they fit the wanted size', () => {
    expect(nextSliceEnd(0, groups, 250)).toBe(200);
    expect(nextSliceEnd(200, groups, 1000)).toBe(450);
  });

  it('always takes at least the rest of the current group when it is not much larger', () => {
    expect(nextSliceEnd(0, groups, 80)).toBe(100);
    expect(nextSliceEnd(150, groups, 40)).toBe(200);
  });

  it('cuts a group far larger than the wanted size into even pieces', () => {
    expect(nextSliceEnd(0, [1000], 300)).toBe(250);
    expect(nextSliceEnd(250, [1000], 300)).toBe(500);
    expect(nextSliceEnd(0, [1000], 1)).toBe(1);
  });

  it('stays put at or past the end', () => {
    expect(nextSliceEnd(450, groups, 100)).toBe(450);
    expect(nextSliceEnd(0, [], 100)).toBe(0);
  });
});
