import { Component, useState, type ErrorInfo, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { Toaster } from '../features/toasts/components/toaster';
import { createAppRouter } from './router';
import { makeStore, type AppStore } from './store';

/** The last line of defence: a crash while rendering shows a way out instead of a blank page. */
class ErrorBoundary extends Component<{ children: ReactNode }, { hasError: boolean }> {
  state = { hasError: false };

  static getDerivedStateFromError() {
    return { hasError: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('The app crashed', error, info.componentStack);
  }

  render() {
    if (!this.state.hasError) return this.props.children;
    return (
      <div className="center-screen">
        <div className="card card-narrow" role="alert">
          <h1>Something went wrong</h1>
          <p className="muted">Reloading the page usually helps.</p>
          <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
            Reload
          </button>
        </div>
      </div>
    );
  }
}

/** Redux store, error boundary, toasts and the router. */
export function AppProvider({ store: givenStore }: { store?: AppStore }) {
  const [store] = useState(() => givenStore ?? makeStore());
  const [router] = useState(createAppRouter);
  return (
    <ErrorBoundary>
      <Provider store={store}>
        <RouterProvider router={router} />
        <Toaster />
      </Provider>
    </ErrorBoundary>
  );
}
