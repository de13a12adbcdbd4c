import type { IncomingHttpHeaders } from 'node:http';
import type { Clock } from '@kickstand/platform/clock';
import type { ErrorBody } from '@kickstand/platform/http';
import type { Logger } from '@kickstand/platform/log';
import type { RefusalReason } from './delivery-health';
import type { VerifiedDelivery } from './webhook-delivery';
import type { WebhookIntake } from './webhook-intake';
import type { WebhookVerifier } from './webhook-verification';

/** An answer of the webhook door: a JSON body, as Express's `res.json` sends it, and its extra headers. */
export interface WebhookAnswer {
  status: 200 | 401 | 413 | 503;
  headers: Readonly<Record<string, string>>;
  body: Readonly<{ success: true } | ErrorBody>;
}

/** Every answer the door gives (kick-api.md §8.7: only these refusals, so that Kick keeps the subscription). */
export const webhookAnswers = {
  kept: { status: 200, headers: {}, body: { success: true } },
  /** Neither the bus nor its spool (or, behind the front door, the owner thread) could take it. */
  unavailable: {
    status: 503,
    headers: { 'Retry-After': '5' },
    body: { success: false, error: 'The delivery could not be kept; try again shortly' },
  },
  /** A missing header, a signature that does not verify, or a stale timestamp. */
  unauthorized: { status: 401, headers: {}, body: { success: false, error: 'Invalid webhook signature' } },
  /** The platform error handler's words for body-parser's `entity.too.large`, as before. */
  tooLarge: { status: 413, headers: {}, body: { success: false, error: 'Request body is too large' } },
} as const satisfies Record<string, WebhookAnswer>;

/** What arrived: the headers as Node gives them (lowercased), the exact bytes, when they were all read. */
export interface DeliveryInput {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  receivedAt: Date;
}

export type KickDeliveryCheck =
  | { kind: 'verified'; delivery: VerifiedDelivery }
  | {
      kind: 'refused';
      answer: WebhookAnswer;
      reason: RefusalReason;
      /** Why, in words for the debug log. */
      problem: string;
      /** Only for a correctly signed stale delivery: its body is Kick's, so its channel may be read. */
      signedBody?: Buffer;
    };

/**
 * Kick's checks of one delivery whose body was read within the size limit: the required headers
 * and the RSA signature (with the key fetch behind `verifier`), then the timestamp window. A
 * missing header counts as `bad-signature`: nothing proves Kick sent it.
 */
export async function checkKickDelivery(verifier: WebhookVerifier, input: DeliveryInput): Promise<KickDeliveryCheck> {
  const verdict = await verifier.verify(input.headers, input.rawBody);
  if (verdict.isValid) {
    return {
      kind: 'verified',
      delivery: {
        headers: verdict.headers,
        rawBody: input.rawBody,
        sentAt: verdict.sentAt,
        receivedAt: input.receivedAt,
      },
    };
  }
  if (verdict.reason === 'stale-timestamp') {
    return {
      kind: 'refused',
      answer: webhookAnswers.unauthorized,
      reason: 'stale-timestamp',
      problem: verdict.problem,
      signedBody: input.rawBody,
    };
  }
  return { kind: 'refused', answer: webhookAnswers.unauthorized, reason: 'bad-signature', problem: verdict.problem };
}

export interface WebhookDeps {
  verifier: WebhookVerifier;
  /** Where a checked delivery goes: kick-link's own (webhook-intake.ts), or its hand-off from another thread. */
  intake: WebhookIntake;
  clock: Clock;
  log: Logger;
  /** HTTP_BODY_LIMIT: "100kb", "1mb", … */
  bodyLimit: string;
}

/**
 * The webhook door without its HTTP framework: whoever reads the body (kick-link's Express route,
 * single-machine mode's plain front door) asks it for the answer, so the checks, the refusals
 * counted in delivery health and the answers exist once.
 */
export interface KickWebhookDoor {
  /** HTTP_BODY_LIMIT in bytes: a body longer than this is not read into memory. */
  bodyLimitBytes: number;
  /** A body over the limit: counts the refusal; answers 413. */
  tooLarge(): WebhookAnswer;
  /** Checks the delivery, counts a refusal or hands a verified one to the intake; the answer to give Kick. */
  receive(input: DeliveryInput): Promise<WebhookAnswer>;
}

export function createKickWebhookDoor(deps: WebhookDeps): KickWebhookDoor {
  const { verifier, intake, log } = deps;
  return {
    bodyLimitBytes: parseBodyLimit(deps.bodyLimit),
    tooLarge() {
      intake.refused('too-large');
      return webhookAnswers.tooLarge;
    },
    async receive(input) {
      const checked = await checkKickDelivery(verifier, input);
      if (checked.kind === 'refused') {
        intake.refused(checked.reason, checked.signedBody);
        log.debug({ reason: checked.problem }, 'webhook delivery refused');
        return checked.answer;
      }
      const answer = await intake.accept(checked.delivery);
      return answer === 'kept' ? webhookAnswers.kept : webhookAnswers.unavailable;
    },
  };
}

const units: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 * 1024 };

/** HTTP_BODY_LIMIT's form (load-config.ts: `\d+(b|kb|mb)`), in bytes as body-parser counts them (1kb = 1024). */
export function parseBodyLimit(limit: string): number {
  const match = /^(\d+)(b|kb|mb)$/i.exec(limit.trim());
  const unit = match ? units[(match[2] as string).toLowerCase()] : undefined;
  if (!match || unit === undefined) throw new TypeError(`the body limit "${limit}" is not a size such as 100kb or 1mb`);
  return Number(match[1]) * unit;
}
