import { useEffect } from 'react';
import { productName } from '../config/constants';

/** The tab's title for a page: "Commands · Kickstand"; the product alone for its own page. */
export const pageTitle = (page?: string): string => (page ? `${page} · ${productName}` : productName);

/** Sets the browser tab's title while the calling page is shown. */
export function usePageTitle(page?: string): void {
  useEffect(() => {
    document.title = pageTitle(page);
  }, [page]);
}
