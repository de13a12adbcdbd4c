import type { Response } from 'express';
import { AppError } from '@kickstand/platform/errors';
import type { Logger } from '@kickstand/platform/log';

/**
 * Runs a route's work; a deliberate AppError (4xx, or a 503 with Retry-After) goes to the error
 * handler as it is, anything else is logged and answered 500 with the route's own failure text (the
 * spec's words) instead of the generic one.
 */
export async function orFail(res: Response, log: Logger, message: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof AppError && error.status !== 500) throw error;
    log.error({ err: error }, message);
    res.status(500).json({ success: false, error: message });
  }
}
