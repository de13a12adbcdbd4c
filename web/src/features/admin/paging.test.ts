import { pageAfterChange, pageCount, pageOf } from './paging';

describe('client-side paging (spec §4: page size 10, back to page 1)', () => {
  const rows = Array.from({ length: 23 }, (_, index) => index + 1);

  test('when 23 rows are paged by 10, then there are 3 pages and the last holds 3', () => {
    expect(pageCount(23, 10)).toBe(3);
    expect(pageOf(rows, 1, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pageOf(rows, 3, 10)).toEqual([21, 22, 23]);
  });

  test('when there are no rows, then there is still one empty page', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageOf([], 1, 10)).toEqual([]);
  });

  test('when exactly 20 rows remain, then there are 2 pages', () => {
    expect(pageCount(20, 10)).toBe(2);
  });

  test('when the current page no longer exists, then it goes back to page 1; otherwise it stays', () => {
    expect(pageAfterChange(3, 20, 10)).toBe(1);
    expect(pageAfterChange(3, 0, 10)).toBe(1);
    expect(pageAfterChange(2, 20, 10)).toBe(2);
    expect(pageAfterChange(3, 21, 10)).toBe(3);
  });
});
