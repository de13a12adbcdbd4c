import type { RefusalReason, VerifiedDelivery } from '@kickstand/kick-link/front-door';

/**
 * The messages between the front door (its own thread) and the owner thread (kick-link's intake),
 * over one MessagePort. Plain data: structured-cloned by Node, no protobuf or JSON in between.
 */
export type FrontMessage =
  /**
   * The deliveries handed over in one event-loop turn of the front door, in the order they came:
   * one message for all of them (a message costs both threads more than the bytes it carries).
   */
  | { kind: 'deliveries'; deliveries: HandedOverDelivery[] }
  | { kind: 'refused'; reason: RefusalReason; signedBody?: Uint8Array }
  | { kind: 'public-key'; id: number };

/** A verified delivery, already answered 200: the owner processes it and counts it `finished`. */
export interface HandedOverDelivery {
  headers: VerifiedDelivery['headers'];
  rawBody: Uint8Array;
  sentAtMs: number;
  receivedAtMs: number;
}

export type OwnerMessage =
  /** How many deliveries the owner finished since its last report (at most one report every finishedReportIntervalMs). */
  | { kind: 'finished'; count: number }
  | { kind: 'public-key'; id: number; pem: string }
  | { kind: 'public-key'; id: number; error: string };

/** The worker's own control messages (on its parentPort). */
export type ThreadControl = { kind: 'stop' };
export type ThreadStatus =
  { kind: 'listening'; port: number } | { kind: 'failed'; message: string; code?: string } | { kind: 'stopped' };

/** What the front door is told when it starts (structured-cloned into the worker). */
export interface FrontDoorOptions {
  /** The public port and host: what a person opens and where Kick sends webhooks. */
  port: number;
  host: string;
  /** The owner thread's gateway on loopback: every request but Kick's webhooks and socket.io. */
  gatewayUrl: string;
  /** The realtime service's own port: socket.io (polling and websockets) goes there directly. */
  realtimeUrl: string;
  /** HTTP_BODY_LIMIT: the webhook door's size limit (413 over it). */
  bodyLimit: string;
  /** kick-link's settings of the checks (WebhookDoorHandOff). */
  verification: { toleranceSeconds: number; refetchIntervalMs: number; fallbackPem: string | undefined };
  /** A public-key request the owner has not answered within this fails (the delivery waiting for it: 503). */
  handOffTimeoutMs: number;
  /**
   * FRONT_DOOR_MAX_UNFINISHED: deliveries handed to the owner (answered 200) that it has not
   * finished yet; at this many, a delivery is answered 503 + Retry-After instead.
   */
  maxUnfinished: number;
}
