import { renderHook } from '@testing-library/react';
import { pageTitle, usePageTitle } from './page-title';

describe('page titles', () => {
  test('when a page has a name, then the tab reads "<page> · Kickstand"; without one, the product alone', () => {
    expect(pageTitle('Commands')).toBe('Commands · Kickstand');
    expect(pageTitle()).toBe('Kickstand');
  });

  test('when the page changes, then the tab title follows', () => {
    const { rerender } = renderHook(({ page }) => usePageTitle(page), { initialProps: { page: 'Setup' } });
    expect(document.title).toBe('Setup · Kickstand');
    rerender({ page: 'Live Chat' });
    expect(document.title).toBe('Live Chat · Kickstand');
  });
});
