// What tests see instead of env.ts (mapped by the web project in the root jest.config.js).
import type { Env } from './env';

export const env: Readonly<Env> = Object.freeze({
  apiBaseUrl: '/api',
  feedbackEmail: 'ideas@kickstand.example',
});
