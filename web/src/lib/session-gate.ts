// Calls that met an expired session wait here until the user signs in again, then retry (api.ts).
// The session closes the gate when a signed-in session expires and opens it at the next sign-in
// (session-listeners.ts). A user who signs out instead leaves the page with a full load, so the
// waiting calls never need to settle.

let closed: { promise: Promise<void>; open: () => void } | undefined;

export const sessionGate = {
  /** A signed-in session expired: calls wait from now on. */
  close(): void {
    if (closed) return;
    let open = (): void => undefined;
    const promise = new Promise<void>((resolve) => {
      open = resolve;
    });
    closed = { promise, open };
  },
  /** Someone signed in: the waiting calls go ahead with the new token. */
  open(): void {
    closed?.open();
    closed = undefined;
  },
  isClosed(): boolean {
    return closed !== undefined;
  },
  /** Resolves at once when open, else at the next sign-in. */
  wait(): Promise<void> {
    return closed?.promise ?? Promise.resolve();
  },
};
