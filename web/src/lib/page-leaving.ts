/**
 * Whether the page is being left (a navigation or a reload has begun). A fetch the browser cuts off
 * because the page goes away fails like a network error (Chromium: TypeError "Failed to fetch",
 * not an abort), so a failure seen meanwhile says nothing about the server.
 */
let isLeaving = false;
let settle: ReturnType<typeof setTimeout> | undefined;

/** A navigation that did not happen after all (a download, a mailto: link) stops counting after this. */
const leavingForgottenAfterMs = 3000;

export function isLeavingPage(): boolean {
  return isLeaving;
}

/** Starts watching (once, at start-up): `beforeunload` begins a leave, `pageshow` (back from the cache) ends it. */
export function watchPageLeaving(target: Pick<Window, 'addEventListener'> = window): void {
  target.addEventListener('beforeunload', () => {
    isLeaving = true;
    clearTimeout(settle);
    settle = setTimeout(() => {
      isLeaving = false;
    }, leavingForgottenAfterMs);
  });
  target.addEventListener('pageshow', () => {
    isLeaving = false;
    clearTimeout(settle);
  });
}
