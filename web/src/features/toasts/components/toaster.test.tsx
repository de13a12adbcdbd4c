import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '../../../app/store';
import { sessionExpired, toastShown } from '../../../lib/app-events';
import { Toaster } from './toaster';

function renderToaster() {
  const store = makeStore();
  render(
    <Provider store={store}>
      <Toaster />
    </Provider>,
  );
  return store;
}

describe('toasts (spec §2, §9)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('when a toast is shown, then it closes after 5000 ms and is gone 300 ms later', () => {
    const store = renderToaster();
    act(() => {
      store.dispatch(toastShown({ type: 'success', message: 'Saved!' }));
    });
    const toast = screen.getByText('Saved!').closest('.toast')!;
    expect(toast).toHaveClass('toast-success');

    act(() => jest.advanceTimersByTime(4999));
    expect(toast).not.toHaveClass('toast-closing');
    act(() => jest.advanceTimersByTime(1));
    expect(toast).toHaveClass('toast-closing');

    act(() => jest.advanceTimersByTime(299));
    expect(screen.getByText('Saved!')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText('Saved!')).not.toBeInTheDocument();
  });

  test('when the close button is pressed, then the 300 ms closing animation runs and the toast goes', () => {
    const store = renderToaster();
    act(() => {
      store.dispatch(toastShown({ type: 'info', message: 'Hello' }));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.getByText('Hello').closest('.toast')).toHaveClass('toast-closing');
    act(() => jest.advanceTimersByTime(300));
    expect(screen.queryByText('Hello')).not.toBeInTheDocument();
  });

  test('when a toast has its own duration, then it stays that long', () => {
    const store = renderToaster();
    act(() => {
      store.dispatch(toastShown({ type: 'error', message: 'Link failed', durationMs: 6000 }));
    });
    act(() => jest.advanceTimersByTime(5999));
    expect(screen.getByText('Link failed').closest('.toast')).not.toHaveClass('toast-closing');
    act(() => jest.advanceTimersByTime(1));
    act(() => jest.advanceTimersByTime(300));
    expect(screen.queryByText('Link failed')).not.toBeInTheDocument();
  });

  test('when the four types are shown, then each has its own style and errors and warnings are alerts', () => {
    const store = renderToaster();
    act(() => {
      for (const type of ['success', 'error', 'warning', 'info'] as const) {
        store.dispatch(toastShown({ type, message: `a ${type}` }));
      }
    });
    for (const type of ['success', 'error', 'warning', 'info']) {
      expect(screen.getByText(`a ${type}`).closest('.toast')).toHaveClass(`toast-${type}`);
    }
    expect(screen.getAllByRole('alert')).toHaveLength(2);
  });

  test('when a fourth toast comes, then the oldest closes: at most three stay', () => {
    const store = renderToaster();
    act(() => {
      for (const message of ['one', 'two', 'three', 'four']) store.dispatch(toastShown({ type: 'info', message }));
    });
    expect(screen.getByText('one').closest('.toast')).toHaveClass('toast-closing');
    act(() => jest.advanceTimersByTime(300));
    expect(screen.getAllByTestId('toast').map((toast) => toast.querySelector('.toast-message')?.textContent)).toEqual([
      'two',
      'three',
      'four',
    ]);
    expect(screen.queryByText('one')).toBeNull();
    expect(screen.getAllByTestId('toast')).toHaveLength(3);
  });

  test('when the same message is shown twice, then it shows once', () => {
    const store = renderToaster();
    act(() => {
      store.dispatch(toastShown({ type: 'error', message: 'Failed to add command' }));
      store.dispatch(toastShown({ type: 'error', message: 'Failed to add command' }));
    });
    expect(screen.getAllByText('Failed to add command')).toHaveLength(1);
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeInTheDocument();
  });

  test('when the session expires, then the warning stays 8000 ms', () => {
    const store = renderToaster();
    act(() => {
      store.dispatch(sessionExpired());
    });
    const toast = screen.getByText('Your session has expired. Please log in again.').closest('.toast')!;
    expect(toast).toHaveClass('toast-warning');
    act(() => jest.advanceTimersByTime(7999));
    expect(toast).not.toHaveClass('toast-closing');
    act(() => jest.advanceTimersByTime(1));
    expect(toast).toHaveClass('toast-closing');
  });
});
