/** Previous / Next with "Page x of y"; hidden when everything fits on one page. */
export function Pager({
  page,
  pages,
  onPage,
  label,
  isDisabled = false,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  label: string;
  isDisabled?: boolean;
}) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="button button-small button-outline"
        disabled={isDisabled || page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      <span className="muted small" aria-live="polite">
        Page {page} of {pages}
      </span>
      <button
        type="button"
        className="button button-small button-outline"
        disabled={isDisabled || page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
