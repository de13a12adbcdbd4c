import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import type { OAuthFlow } from './repository';

/**
 * Binds an OAuth round trip to the browser that started it (docs/security.md, "OAuth link CSRF").
 *
 * The state alone proves only that *some* Kickstand user started a link: an attacker could start
 * one and send the authorize URL to a victim, whose approval would then link the victim's channel
 * to the attacker's account. So the start also gives the browser a random key in an HttpOnly
 * cookie, and the state stores the key's hash; the callback goes on only when the browser brings
 * the key back. Kick sends the browser to the callback with a top-level GET, which carries
 * SameSite=Lax cookies.
 */

/** One cookie per flow: a streamer who is also the admin can link both at once. */
export function browserCookieName(flow: OAuthFlow): string {
  return flow === 'bot-account' ? 'kickstand_oauth_bot' : 'kickstand_oauth';
}

/** 256 random bits, base64url (43 characters): cookie-safe as it is. */
export function newBrowserKey(): string {
  return randomBytes(32).toString('base64url');
}

/** What the state keeps of the key: a leaked state store gives nothing to present as a cookie. */
export function browserKeyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** True only when the browser presented the key whose hash the state keeps. */
export function isSameBrowser(storedHash: string | undefined, presentedKey: string | undefined): boolean {
  // states stored before the binding existed have no hash: they are refused (they live 10 minutes)
  if (!storedHash || !presentedKey) return false;
  const presented = Buffer.from(browserKeyHash(presentedKey), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** One cookie's value from a Cookie header (`a=1; b=2`); the keys are base64url, so no decoding. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
  }
  return undefined;
}

/** Where and how long the cookie lives: derived from the redirect URI, where it has to come back. */
export interface BrowserCookieSettings {
  /** The redirect URI is https: the cookie is never sent over plain http. */
  secure: boolean;
  /** The redirect URI's path: the cookie goes with the callback and nowhere else. */
  path: string;
  /** As long as a state is good for. */
  maxAgeSeconds: number;
}

export function browserCookieSettings(redirectUri: string, oauthStateSeconds: number): BrowserCookieSettings {
  const url = new URL(redirectUri);
  return { secure: url.protocol === 'https:', path: url.pathname, maxAgeSeconds: oauthStateSeconds };
}

function cookieOptions(settings: BrowserCookieSettings): CookieOptions {
  return { httpOnly: true, secure: settings.secure, sameSite: 'lax', path: settings.path };
}

/** On the start's answer (an XHR from the SPA, same origin through the gateway). */
export function setBrowserCookie(res: Response, settings: BrowserCookieSettings, flow: OAuthFlow, key: string): void {
  res.cookie(browserCookieName(flow), key, { ...cookieOptions(settings), maxAge: settings.maxAgeSeconds * 1000 });
}

/** On the callback's answer once the key was used: its state is spent, the cookie is no use any more. */
export function clearBrowserCookie(res: Response, settings: BrowserCookieSettings, flow: OAuthFlow): void {
  res.clearCookie(browserCookieName(flow), cookieOptions(settings));
}

/** The callback's look-up of the key the browser brought for a flow. */
export type BrowserKeys = (flow: OAuthFlow) => string | undefined;

export function browserKeysOf(req: Request): BrowserKeys {
  return (flow) => cookieValue(req.headers.cookie, browserCookieName(flow));
}
