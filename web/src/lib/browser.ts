/** Full page loads, in one object so tests can replace them (jsdom cannot navigate). */
export const browser = {
  goTo(url: string): void {
    window.location.assign(url);
  },
  reload(): void {
    window.location.reload();
  },
};
