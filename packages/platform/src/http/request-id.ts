import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const acceptableRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps the caller's x-request-id when it is sane (the gateway sets one), otherwise makes one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && acceptableRequestId.test(given) ? given : randomUUID();
}
