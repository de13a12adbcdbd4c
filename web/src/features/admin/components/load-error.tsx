/** A screen's data could not be loaded: the message (the server's error or the spec's text) and a retry. */
export function LoadError({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="card empty-state" role="alert">
      <p className="empty-title">{message}</p>
      {onRetry && (
        <button type="button" className="button button-outline" onClick={() => onRetry()}>
          Try again
        </button>
      )}
    </div>
  );
}
