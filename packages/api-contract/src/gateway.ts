import { z } from 'zod';

// The gateway's own doors: the services' health, and this contract as OpenAPI.

export const serviceHealthSchema = z.object({
  name: z.string(),
  status: z.enum(['up', 'down']),
  latencyMs: z.number(),
  /** Seconds since the service's process started; null when it did not say. */
  uptimeSeconds: z.number().int().nullable(),
});
export type ServiceHealth = z.infer<typeof serviceHealthSchema>;

export const systemHealthSchema = z.object({
  status: z.enum(['up', 'degraded']),
  services: z.array(serviceHealthSchema),
});
export type SystemHealth = z.infer<typeof systemHealthSchema>;

export const healthReplySchema = z.object({ success: z.literal(true), data: systemHealthSchema });
/** 503: the same data, with the services that are down named in `error`. */
export const healthDownReplySchema = z.object({
  success: z.literal(false),
  error: z.string(),
  data: systemHealthSchema,
});

/** The gateway's per-address limit on the /api routes it hands to the services (429, with Retry-After). */
export const gatewayMessages = {
  tooManyRequests: (retryAfterSeconds: number) =>
    `Too many requests from this address. Please try again in ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}.`,
  tooManyRequestsDescription: 'Too many requests from this address (Retry-After says when to try again)',
} as const;
