import { createHash } from 'node:crypto';

/** RFC 7636: 43–128 unreserved characters. */
export const codeVerifierPattern = /^[A-Za-z0-9\-._~]{43,128}$/;

/** base64url (no padding) of a SHA-256: always 43 characters. */
export const codeChallengePattern = /^[A-Za-z0-9_-]{43}$/;

export const s256Challenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');
