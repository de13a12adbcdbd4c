import { render, type RenderOptions } from '@testing-library/react';
import { StrictMode, type ReactElement, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router-dom';
import { routes } from '../app/router';
import { makeStore, type AppStore, type RootState } from '../app/store';
import { Toaster } from '../features/toasts/components/toaster';

interface Options extends Omit<RenderOptions, 'wrapper'> {
  store?: AppStore;
  preloadedState?: Partial<RootState>;
  /** The memory router's first entry. */
  path?: string;
}

/** Renders one component with a fresh store, a memory router and the toasts. */
export function renderWithProviders(ui: ReactElement, { store, preloadedState, path = '/', ...options }: Options = {}) {
  const theStore = store ?? makeStore(preloadedState);
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <Provider store={theStore}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
      <Toaster />
    </Provider>
  );
  return { store: theStore, ...render(ui, { wrapper: Wrapper, ...options }) };
}

/** Renders the whole app (its real route table) at `path`. */
export function renderApp(path: string, { store }: { store?: AppStore } = {}) {
  const theStore = store ?? makeStore();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // StrictMode as in main.tsx: effects run twice in development, and the app must not mind
  const result = render(
    <StrictMode>
      <Provider store={theStore}>
        <RouterProvider router={router} />
        <Toaster />
      </Provider>
    </StrictMode>,
  );
  return { store: theStore, router, ...result };
}
