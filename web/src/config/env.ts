// The ONLY reader of import.meta.env. Jest maps this module to env.jest.ts (same shape, no import.meta).
export type Env = {
  /** Base path of the gateway's HTTP API; the dev server proxies it, production serves it same-origin. */
  apiBaseUrl: string;
  /** Contact address for feature suggestions. */
  feedbackEmail: string;
};

export const env: Readonly<Env> = Object.freeze({
  apiBaseUrl: '/api',
  feedbackEmail: import.meta.env.VITE_FEEDBACK_EMAIL || 'ideas@kickstand.example',
});
