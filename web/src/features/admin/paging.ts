// Client-side paging of a list already in memory (the subscription table, spec §2 and §4).

/** How many pages `total` rows fill; an empty list still has one (empty) page. */
export const pageCount = (total: number, pageSize: number): number => Math.max(1, Math.ceil(total / pageSize));

/** The spec's rule: when the current page no longer exists (rows went away), go back to page 1. */
export const pageAfterChange = (page: number, total: number, pageSize: number): number =>
  page > pageCount(total, pageSize) ? 1 : page;

/** The rows of `page` (1-based). */
export function pageOf<T>(rows: readonly T[], page: number, pageSize: number): T[] {
  const start = (page - 1) * pageSize;
  return rows.slice(start, start + pageSize);
}
