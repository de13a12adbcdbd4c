import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** The top-level error boundary of the router: a screen with a way out instead of a blank page. */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : undefined;
  return (
    <div className="center-screen">
      <div className="card card-narrow" role="alert">
        <h1>Something went wrong</h1>
        <p className="muted">The page could not be shown{detail ? ` (${detail})` : ''}. Reloading usually helps.</p>
        <div className="actions-row">
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            Reload
          </button>
          <a className="button button-outline" href="/">
            Home
          </a>
        </div>
      </div>
    </div>
  );
}
