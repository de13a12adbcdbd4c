import type { ReplySender } from '@kickstand/api-contract';
import type { TopicMessage } from '@kickstand/platform/bus';
import { cutChatLine, kickChatMaxLength } from '@kickstand/platform/chat';
import { wallClockMs, type Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import { processMetrics } from '@kickstand/platform/metrics';
import { timestampDate, timestampFromDate } from '@kickstand/proto';
import type { BotAccountDirectory } from './bot-account';
import type { DeliveryHealthReporter, ReplyResult, SenderKind } from './delivery-health';
import type { KickLinkPublisher } from './publisher';
import {
  KickApiError,
  KickNotSentError,
  KickUnreachableError,
  kickProblem,
  type KickChatMessage,
  type KickClient,
  type KickSentChat,
} from './kick-client';
import { createKeyedQueue } from '@kickstand/platform/keyed-queue';
import { createRecentIds } from '@kickstand/platform/store';
import { createJustPosted } from './just-posted';
import { NeedsRelinkError, NotLinkedError, needsRelinkMessage, notLinkedMessage, type UserTokens } from './kick-tokens';
import {
  botAccountId,
  retention,
  type KickLinkRepository,
  type LinkDoc,
  type SendOutcome,
  type SenderStateDoc,
  type StoredReply,
} from './repository';
import type { ChatSenderMode } from './options';

/** Kick's limit (kick-api.md §5.1), in characters (code points): the platform's one cut. */
export const chatContentMaxLength = kickChatMaxLength;
export const cutToLimit = cutChatLine;

// ---------------------------------------------------------------------------------------------
// The product's own lines: what comes back through the webhook is marked is_from_bot
// ---------------------------------------------------------------------------------------------

export interface ChatLine {
  broadcasterUserId: string;
  messageId: string;
  content: string;
  senderUserId: string;
  senderUsername: string;
}

/**
 * Kick echoes every line posted through POST /chat as a chat.message.sent delivery (kick-api.md
 * §5.1, gotcha 8). A line is ours when its message id is one Kick returned to us; when it matches a
 * send still in flight (the echo can overtake Kick's answer); when its sender is the linked bot
 * account, the configured KICK_BOT_USERNAME or the app's bot learned from an earlier echo; when it
 * repeats, in the same channel, a line we posted less than a minute ago (in case Kick echoes it
 * under another id; each post covers one echo only, so the streamer typing the same words again is
 * theirs); or — the streamer's own lines only — when the store knows the id (another kick-link
 * instance posted it as the streamer). A streamer's own `$command` matches none of these.
 */
export interface OwnLines {
  isOwn(line: ChatLine): Promise<boolean>;
  /** A send is about to go out; returns a handle for `sent` and `settled`. */
  sending(broadcasterUserId: string, content: string): symbol;
  /** Kick posted the send of `handle` under `messageId`. */
  sent(messageId: string, handle?: symbol): void;
  settled(handle: symbol): void;
}

/** How long a posted line's words are matched against echoes under another id. */
export const justPostedMs = 60 * 1000;

export function createOwnLines(deps: {
  repo: KickLinkRepository;
  clock: Clock;
  botAccounts: BotAccountDirectory;
  botUsername: string | undefined;
  /** How many posts the echo check holds at most (just-posted.ts); 100,000 by default. */
  maxJustPosted?: number;
}): OwnLines {
  const { repo, clock, botAccounts } = deps;
  /**
   * Message ids Kick returned, each kept 10 minutes (at most 10,000): outside the V8 heap, as a
   * Map of them was promoted id by id and rehashed in the old generation (docs/performance.md,
   * "Recent ids off the heap").
   */
  const recent = createRecentIds({ maxIds: 10_000, keepMs: 10 * 60 * 1000 });
  /**
   * Sends in flight by channel and words (a viewer line is looked up, not compared with each):
   * whether each was echoed already.
   */
  let inFlight = new Map<string, Map<symbol, { isEchoed: boolean }>>();
  let inFlightSends = new Map<symbol, { broadcasterUserId: string; content: string; key: string }>();
  const keyOf = (broadcasterUserId: string, content: string) => `${broadcasterUserId}\n${content}`;
  /** What was posted lately: one entry per post, spent by its echo (keyed and bounded: just-posted.ts). */
  const justPosted = createJustPosted({ keepMs: justPostedMs, maxEntries: deps.maxJustPosted });
  const botUserIds = new Set<string>();
  const botUsername = deps.botUsername?.toLowerCase();

  /** Spends the post this echo belongs to; true when there was one. */
  const spendJustPosted = (line: ChatLine, now: number): boolean =>
    justPosted.spend(line.broadcasterUserId, line.content, now);

  return {
    async isOwn(line) {
      const now = clock.now().getTime();
      const isSenderTheChannel = line.senderUserId === line.broadcasterUserId;
      if (recent.has(line.messageId, now)) {
        spendJustPosted(line, now);
        // posting as the app's bot: the sender is that bot account, whatever it is called
        if (!isSenderTheChannel) botUserIds.add(line.senderUserId);
        return true;
      }
      const pending = inFlight.get(keyOf(line.broadcasterUserId, line.content));
      if (pending) {
        for (const send of pending.values()) {
          send.isEchoed = true;
          break;
        }
        return true;
      }
      if (!isSenderTheChannel) {
        if (line.senderUserId === (await botAccounts.knownKickUserId())) {
          spendJustPosted(line, now);
          return true;
        }
        if (botUsername !== undefined && line.senderUsername.toLowerCase() === botUsername) return true;
        if (botUserIds.has(line.senderUserId)) return true;
      }
      if (spendJustPosted(line, now)) return true;
      if (isSenderTheChannel) return repo.sentMessages.exists(line.messageId);
      return false;
    },
    sending(broadcasterUserId, content) {
      const handle = Symbol('send');
      const key = keyOf(broadcasterUserId, content);
      let sends = inFlight.get(key);
      if (!sends) {
        sends = new Map();
        inFlight.set(key, sends);
      }
      sends.set(handle, { isEchoed: false });
      inFlightSends.set(handle, { broadcasterUserId, content, key });
      return handle;
    },
    sent(messageId, handle) {
      const now = clock.now().getTime();
      recent.add(messageId, now);
      const send = handle && inFlightSends.get(handle);
      const pending = handle && send ? inFlight.get(send.key)?.get(handle) : undefined;
      // an echo that overtook Kick's answer has spent this post already
      if (send && pending && !pending.isEchoed) justPosted.add(send.broadcasterUserId, send.content, now);
    },
    settled(handle) {
      const send = inFlightSends.get(handle);
      if (!send) return;
      inFlightSends.delete(handle);
      const sends = inFlight.get(send.key);
      sends?.delete(handle);
      if (sends?.size === 0) inFlight.delete(send.key);
      // new ones once they empty (docs/performance.md, "Garbage made in the old generation")
      if (inFlightSends.size === 0) {
        inFlightSends = new Map();
        inFlight = new Map();
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Who speaks, and Kick's refusals in a streamer's words (pure)
// ---------------------------------------------------------------------------------------------

/** After Kick refused `type: "bot"` in a channel, it is tried again this much later. */
export const botRetryAfterMs = 24 * 60 * 60 * 1000;

/** The sender for a channel without the bot account: `bot` unless Kick refused it within a day. */
export function streamerSenderKind(mode: ChatSenderMode, state: SenderStateDoc | null, now: Date): SenderKind {
  if (mode === 'user') return 'streamer-user';
  if (mode === 'bot') return 'streamer-bot';
  const refusedAt = state?.botRefusedAt;
  return refusedAt && now.getTime() - refusedAt.getTime() < botRetryAfterMs ? 'streamer-user' : 'streamer-bot';
}

/** Kick's answers to `type: "bot"` that mean "not for this app": 500, or 400 Channel not found (§5.1). */
export function isBotRefusal(error: KickApiError): boolean {
  return error.status >= 500 || (error.status === 400 && /channel not found/i.test(error.reason));
}

const isQuota = (error: KickApiError) => /quota exceeded/i.test(error.reason);

/** A 400 about the message replied to (deleted, unknown): the reply goes out once more without it. */
export function isReplyTargetRefusal(error: KickApiError): boolean {
  return error.status === 400 && !isQuota(error) && /repl(y|ied)/i.test(error.reason);
}

export const isRetryable = (error: KickApiError) => error.status === 429 || error.status >= 500;

export const quotaMessage = "Kick's daily chat limit for this app is used up; replies resume tomorrow";
export const tooOldMessage = 'The reply was dropped: Kick did not take it within 2 minutes';
export const queueFullMessage = 'The reply was dropped: too many replies were waiting for this channel';
export const notPostedMessage = 'Kick did not post the message';

/** Kick's refusal in words a streamer understands (shown on the dashboard, logged with Kick's own). */
export function streamerReason(error: KickApiError, kind: SenderKind, botUsername?: string): string {
  if (isQuota(error)) return quotaMessage;
  if (error.status === 429) return 'Kick is limiting how fast the bot may post; the reply was not sent';
  if (error.status >= 500) return `Kick had a problem (HTTP ${error.status}) and did not post the reply`;
  if (kind === 'bot-account' && botUsername && (error.status === 403 || error.status === 400)) {
    return `Kick refused the reply from @${botUsername} (${error.reason}); make @${botUsername} a moderator of your channel`;
  }
  if (error.status === 401 || error.status === 403) {
    return `Kick did not accept the bot's authorization (${error.reason}); link your Kick account again`;
  }
  return `Kick refused the message: ${error.reason}`;
}

// ---------------------------------------------------------------------------------------------
// chat.send → POST /chat → chat.sent, at most once per idempotency key
// ---------------------------------------------------------------------------------------------

/** Who a channel's replies are posted as (GET /api/platform/kick/chat-sender): the HTTP contract's. */
export type SenderView = ReplySender;

export interface ChatSender {
  /** Claims the key (storing the reply) and queues the reply in its channel; resolves once queued (or refused). */
  handle(message: TopicMessage<'chat.send'>): Promise<void>;
  /** A first recovery pass now, then one every recovery.intervalMs (an unref'ed timer; none when 0). */
  start(): void;
  /** Stops the recovery timer and waits for the pass in flight (queued replies: see drain). */
  stop(): Promise<void>;
  /**
   * One pass: claims still `queued` after recovery.graceMs that this instance does not hold (an
   * instance died with them in its queue) are queued here, or settled as dropped when too old.
   */
  recover(): Promise<void>;
  /** Who replies in this channel now. */
  describe(link: LinkDoc): Promise<SenderView>;
  /** Resolves when every queued reply has been handled (tests, shutdown). */
  drain(): Promise<void>;
}

export interface ReplyPolicy {
  /**
   * A reply received (by kick-link, chat.send's source_received_at, else occurred_at) longer ago
   * than this is dropped: our own clock, so Kick's clock being off does not shorten it.
   */
  maxAgeMs: number;
  /**
   * A reply whose line was said (chat.send's source_sent_at: Kick's created_at, bounded by our
   * arrival) longer ago than this is dropped too. Every copy of a chat.send carries the same line
   * time, so this is what stops a copy received anew after its key's claim expired; it must stay
   * below retention.sendClaimSeconds, which relies on it, and above maxAgeMs plus the 5 minutes a
   * delivery may be off our clock (the webhook check refuses more), so a Kick clock running behind
   * ours does not drop fresh replies.
   */
  maxLineAgeMs: number;
  /** Attempts on 429 / 5xx, the first included. */
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** Replies waiting per channel; more are dropped. */
  maxQueuedPerChannel: number;
}

export interface RecoveryTiming {
  /** A queued claim younger than this is left to the instance that queued it. */
  graceMs: number;
  /** Between passes; 0: no timer (passes only through recover()). */
  intervalMs: number;
  /** Claims taken up per pass. */
  batch: number;
}

/**
 * How long a claimed key stops copies of its chat.send (retention.sendClaimSeconds, where the
 * window is argued): a chat.send older than this by its own time may be a copy whose claim expired.
 */
export const claimWindowMs = retention.sendClaimSeconds * 1000;

export const defaultRecoveryTiming: RecoveryTiming = { graceMs: 5000, intervalMs: 5000, batch: 200 };

export const defaultReplyPolicy: ReplyPolicy = {
  maxAgeMs: 120_000,
  maxLineAgeMs: 480_000,
  maxAttempts: 5,
  initialBackoffMs: 1000,
  maxBackoffMs: 8000,
  maxQueuedPerChannel: 20,
};

export interface ChatSenderDeps {
  repo: KickLinkRepository;
  kick: KickClient;
  /** The streamers' tokens. */
  userTokens: UserTokens;
  /** The bot account's tokens (id `botAccountId`). */
  botTokens: UserTokens;
  botAccounts: BotAccountDirectory;
  ownLines: OwnLines;
  publisher: KickLinkPublisher;
  health: DeliveryHealthReporter;
  clock: Clock;
  log: Logger;
  mode: ChatSenderMode;
  policy?: Partial<ReplyPolicy>;
  recovery?: Partial<RecoveryTiming>;
  /** Waits between attempts (setTimeout by default; tests move their fake clock). */
  sleep?: (ms: number) => Promise<void>;
  /** For the jitter; Math.random by default. */
  random?: () => number;
}

/** How long a channel's sender state read from the store is used without reading it again. */
export const senderStateCacheMs = 30_000;
const maxCachedSenderStates = 100_000;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A claimed reply: what chat.send asked for, as stored with its claim. */
interface Reply extends StoredReply {
  key: string;
}

function replyOf(message: TopicMessage<'chat.send'>): Reply {
  return {
    key: message.idempotencyKey,
    broadcasterUserId: message.broadcasterUserId,
    ownerUserId: message.ownerUserId,
    content: message.content,
    // absent rather than undefined: the store keeps plain values
    ...(message.replyToMessageId === undefined ? {} : { replyToMessageId: message.replyToMessageId }),
    ...(message.replyToUsername === undefined ? {} : { replyToUsername: message.replyToUsername }),
    origin: message.origin,
    sourceReceivedAt: message.sourceReceivedAt ? timestampDate(message.sourceReceivedAt) : null,
    occurredAt: message.occurredAt ? timestampDate(message.occurredAt) : null,
    ...(message.sourceSentAt ? { sourceSentAt: timestampDate(message.sourceSentAt) } : {}),
  };
}

function storedOf(reply: Reply): StoredReply {
  const { key: _key, ...stored } = reply;
  return stored;
}

interface Attempted {
  outcome: SendOutcome;
  kind: SenderKind;
  result: ReplyResult;
}

/**
 * The idempotency key is claimed (a claim set, kept 10 minutes: retention.sendClaimSeconds) before
 * Kick is called, so a chat.send delivered twice is posted once; a copy after those 10 minutes is
 * older than `maxAgeMs` by its own time (source_sent_at) and never reaches Kick. The claim is `queued` while the reply
 * waits; right before the first call to Kick the worker moves it to `posting` atomically, and only
 * the one that did may call Kick: a claim in `posting` is never posted again (a crash during the
 * call loses that one line rather than risk it twice). A reply still `queued` when its instance
 * died is found by the recovery pass of any instance and goes through the same worker path. Retries (429, 5xx, a refused reply target, `bot` refused →
 * `user`) all happen inside that one claim and only after answers that say nothing was posted; a
 * timeout is never retried. Each channel's replies wait in their own bounded queue, so a channel
 * backing off does not hold up the others on its bus partition. An outcome whose chat.sent could
 * not be published is stored with the claim (settle), so a redelivery publishes it then.
 */
export function createChatSender(deps: ChatSenderDeps): ChatSender {
  const { repo, kick, userTokens, botTokens, botAccounts, ownLines, publisher, health, clock, log, mode } = deps;
  const policy: ReplyPolicy = { ...defaultReplyPolicy, ...deps.policy };
  const sleep = deps.sleep ?? defaultSleep;
  const random = deps.random ?? Math.random;
  const lock = createKeyedQueue();
  let queued = new Map<string, number>();
  let running = new Set<Promise<void>>();
  /** Keys queued here and not settled yet: recovery leaves them to this instance's queue. */
  let held = new Set<string>();
  const timing: RecoveryTiming = { ...defaultRecoveryTiming, ...deps.recovery };
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  // the reply path's last stages (docs/performance.md, "Where the reply latency goes")
  const toPostedStage = processMetrics().replyStage.labels({ service: 'kick-link', stage: 'to-posted' });
  const wholeStage = processMetrics().replyStage.labels({ service: 'kick-link', stage: 'received-to-posted' });

  /**
   * Every reply needs its channel's sender state (`bot` refused lately? a last error to clear?),
   * which changes only here, on Kick's answers, and stays empty for most channels. So what this
   * instance read is kept for a while instead of read from the store per reply, and forgotten at
   * each write of its own. Another instance (after a rebalance of chat.send) may write a channel's
   * state meanwhile; until it shows here this one may try `bot` once more or clear an error
   * again, which is what it would do with the store's answer a moment older.
   */
  const cachedStates = new Map<string, { state: SenderStateDoc | null; untilMs: number }>();
  /** Counts this instance's writes: a read that a write overtook is not kept. */
  let stateWrites = 0;
  async function senderStateOf(channel: string): Promise<SenderStateDoc | null> {
    const now = clock.now().getTime();
    const cached = cachedStates.get(channel);
    if (cached && cached.untilMs > now) return cached.state;
    const writesBefore = stateWrites;
    const state = await repo.senderStates.get(channel);
    if (stateWrites !== writesBefore) return state;
    if (cachedStates.size >= maxCachedSenderStates) cachedStates.clear();
    cachedStates.set(channel, { state, untilMs: now + senderStateCacheMs });
    return state;
  }
  function writingState(channel: string, write: Promise<void>): Promise<void> {
    stateWrites++;
    cachedStates.delete(channel);
    return write.finally(() => {
      stateWrites++;
      cachedStates.delete(channel);
    });
  }
  const senderStates = {
    botRefused: (channel: string, at: Date, reason: string) =>
      writingState(channel, repo.senderStates.botRefused(channel, at, reason)),
    botAccepted: (channel: string) => writingState(channel, repo.senderStates.botAccepted(channel)),
    failed: (channel: string, error: string, at: Date) =>
      writingState(channel, repo.senderStates.failed(channel, error, at)),
    succeeded: (channel: string) => writingState(channel, repo.senderStates.succeeded(channel)),
  };

  /** Kick answered a reply's POST: how long since chat.send, and since Kick's delivery of the command. */
  function observePosted(reply: Reply): void {
    const now = wallClockMs();
    if (reply.occurredAt) toPostedStage.observe(Math.max(0, now - reply.occurredAt.getTime()) / 1000);
    if (reply.sourceReceivedAt) wholeStage.observe(Math.max(0, now - reply.sourceReceivedAt.getTime()) / 1000);
  }

  /** Full jitter on the upper half of the doubled delay. */
  const backoff = (attempt: number) => {
    const ceiling = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** (attempt - 1));
    return Math.round(ceiling * (0.5 + random() / 2));
  };

  async function publishOutcome(reply: Reply, outcome: SendOutcome): Promise<void> {
    await publisher.chatSent({
      idempotencyKey: reply.key,
      broadcasterUserId: reply.broadcasterUserId,
      ownerUserId: reply.ownerUserId,
      isSent: outcome.isSent,
      error: outcome.error,
      messageId: outcome.messageId,
      content: outcome.content,
      replyToMessageId: reply.replyToMessageId,
      replyToUsername: reply.replyToUsername,
      sentAt: outcome.sentAt,
      origin: reply.origin,
      sourceReceivedAt: reply.sourceReceivedAt ? timestampFromDate(reply.sourceReceivedAt) : undefined,
    });
  }

  /** Publishes an outcome stored earlier (a redelivered chat.send), then marks it published. */
  async function publishStored(reply: Reply, outcome: SendOutcome): Promise<void> {
    await publishOutcome(reply, outcome);
    await repo.sendClaims.markPublished(reply.key);
  }

  /**
   * When the reply's line was said (else received, else asked for, else claimed). source_sent_at
   * is the same in every copy of a chat.send; the receive time of a line received again (a
   * replayed dead letter) is not, which is why it comes first here.
   */
  const sourceAtOf = (reply: Reply, claimedAt: Date) =>
    reply.sourceSentAt ?? reply.sourceReceivedAt ?? reply.occurredAt ?? claimedAt;
  /** When kick-link received the reply's line (else asked for, else claimed): our own clock. */
  const receivedAtOf = (reply: Reply, claimedAt: Date) => reply.sourceReceivedAt ?? reply.occurredAt ?? claimedAt;
  /** How long from `atMs` until the reply is past either age limit (ReplyPolicy); negative once it is. */
  const msUntilTooOld = (reply: Reply, claimedAt: Date, atMs: number) =>
    Math.min(
      policy.maxAgeMs - (atMs - receivedAtOf(reply, claimedAt).getTime()),
      policy.maxLineAgeMs - (atMs - sourceAtOf(reply, claimedAt).getTime()),
    );
  /** Past either age limit: never posted. */
  const isTooOld = (reply: Reply, claimedAt: Date, atMs: number) => msUntilTooOld(reply, claimedAt, atMs) < 0;

  async function senderKindOf(state: SenderStateDoc | null): Promise<SenderKind> {
    if (mode === 'auto' && (await botAccounts.current())) return 'bot-account';
    return streamerSenderKind(mode, state, clock.now());
  }

  /**
   * `maxQueueWaitMs`: the reply's time left before it is too old. A reply still waiting for a free
   * connection to Kick then is not sent at all (KickNotSentError), as if it had been dropped before.
   */
  function postAs(
    kind: SenderKind,
    link: LinkDoc,
    content: string,
    replyToMessageId: string | undefined,
    maxQueueWaitMs: number,
  ): Promise<KickSentChat> {
    const body: KickChatMessage =
      kind === 'streamer-bot'
        ? { type: 'bot', content, replyToMessageId }
        : { type: 'user', broadcasterUserId: link.kickUserId, content, replyToMessageId };
    return kind === 'bot-account'
      ? botTokens.withUserToken(botAccountId, (token) => kick.sendChat(token, body, { maxQueueWaitMs }))
      : userTokens.withUserToken(link._id, (token) => kick.sendChat(token, body, { maxQueueWaitMs }), link);
  }

  async function attempt(reply: Reply, link: LinkDoc, content: string): Promise<Attempted> {
    const channel = link.kickUserId;
    const state = await senderStateOf(channel);
    let kind = await senderKindOf(state);
    let replyTo = reply.replyToMessageId || undefined;
    const startedAt = clock.now();
    const isTooOldAt = (atMs: number) => isTooOld(reply, startedAt, atMs);
    const end = (result: ReplyResult, error: string, messageId = ''): Attempted => ({
      outcome: { isSent: result === 'sent', error, messageId, content, sentAt: clock.now() },
      kind,
      result,
    });

    for (let tries = 1; ; tries += 1) {
      const msLeft = msUntilTooOld(reply, startedAt, clock.now().getTime());
      if (msLeft < 0) return end('dropped', tooOldMessage);
      const handle = ownLines.sending(channel, content);
      try {
        const sent = await postAs(kind, link, content, replyTo, msLeft);
        observePosted(reply);
        if (!sent.isSent) {
          log.warn({ broadcasterUserId: channel, sender: kind }, 'POST /chat answered is_sent: false');
          return end('failed', notPostedMessage);
        }
        ownLines.sent(sent.messageId, handle);
        // the echo of a line posted as the streamer comes from the streamer: only its id tells
        if (kind !== 'bot-account') {
          await repo.sentMessages
            .record(sent.messageId, clock.now())
            .catch((err: unknown) => log.warn({ err }, 'could not remember a sent chat message id'));
        }
        if (kind === 'streamer-bot' && state?.botRefusedAt) await senderStates.botAccepted(channel);
        if (state?.lastError) await senderStates.succeeded(channel);
        return end('sent', '', sent.messageId);
      } catch (error) {
        if (kind === 'bot-account' && (error instanceof NeedsRelinkError || error instanceof NotLinkedError)) {
          // the bot account went away or needs a new link: this reply goes out the streamer's way
          log.warn({ broadcasterUserId: channel }, 'the bot account cannot post: falling back to the streamer');
          botAccounts.changed();
          kind = streamerSenderKind(mode, state, clock.now());
          continue;
        }
        if (error instanceof NeedsRelinkError) return end('failed', needsRelinkMessage);
        if (error instanceof NotLinkedError) return end('failed', notLinkedMessage);
        if (error instanceof KickNotSentError) {
          // it never left kick-link: Kick was so slow that the reply grew too old in the queue
          log.warn({ broadcasterUserId: channel, sender: kind }, error.message);
          return end('dropped', tooOldMessage);
        }
        if (error instanceof KickUnreachableError) {
          // not retried: Kick may have posted it, and a second post could make the bot speak twice
          log.warn({ err: error, broadcasterUserId: channel, sender: kind }, 'POST /chat did not answer');
          return end('failed', 'Kick could not be reached; the message was not confirmed');
        }
        if (!(error instanceof KickApiError)) {
          log.error({ err: error, broadcasterUserId: channel, sender: kind }, 'sending a chat message failed');
          return end('failed', `The message could not be sent: ${kickProblem(error)}`);
        }
        const answer = { broadcasterUserId: channel, sender: kind, status: error.status, reason: error.reason, tries };
        if (kind === 'streamer-bot' && mode === 'auto' && isBotRefusal(error)) {
          log.warn(answer, 'Kick refused type "bot": this channel posts as the streamer for a day');
          // not reported as a Kick error: on real Kick this fallback is the plan (§5.1), and the
          // dashboard's sender line says why already
          await senderStates.botRefused(channel, clock.now(), error.reason);
          kind = 'streamer-user';
          continue;
        }
        if (replyTo !== undefined && isReplyTargetRefusal(error)) {
          log.warn(answer, 'Kick refused the reply target: posting once more without it');
          replyTo = undefined;
          continue;
        }
        if (isRetryable(error) && tries < policy.maxAttempts) {
          const wait = backoff(tries);
          log.warn({ ...answer, waitMs: wait }, 'Kick refused a reply for now: trying again');
          if (isTooOldAt(clock.now().getTime() + wait)) return end('dropped', tooOldMessage);
          await sleep(wait);
          continue;
        }
        log.warn(answer, 'Kick refused a reply');
        const bot = kind === 'bot-account' ? await botAccounts.current() : null;
        const reason = streamerReason(error, kind, bot?.kickUsername);
        health.kickError(channel, reason);
        return end('failed', reason);
      } finally {
        ownLines.settled(handle);
      }
    }
  }

  async function deliver(reply: Reply): Promise<Attempted | SendOutcome> {
    const content = cutToLimit(reply.content);
    const failed = (error: string): SendOutcome => ({
      isSent: false,
      error,
      messageId: '',
      content,
      sentAt: clock.now(),
    });
    const link = await repo.links.byKickUser(reply.broadcasterUserId);
    if (!link) return failed(notLinkedMessage);
    if (reply.ownerUserId !== '' && reply.ownerUserId !== link._id) {
      return failed('This channel is linked to another Kickstand user');
    }
    return attempt(reply, link, content);
  }

  async function report(channel: string, attempted: Attempted): Promise<void> {
    const { kind, result, outcome } = attempted;
    health.reply(channel, kind, result, outcome.error || undefined);
    if (result === 'sent') return;
    // an operator reading the log after an outage learns why a command went unanswered
    if (result === 'dropped') log.warn({ broadcasterUserId: channel, sender: kind }, outcome.error);
    await senderStates
      .failed(channel, outcome.error, clock.now())
      .catch((err: unknown) => log.warn({ err }, 'could not store the last reply error'));
  }

  /**
   * chat.sent first; the outcome is stored with the claim only when that publish failed, and a
   * redelivered chat.send publishes it then. A published outcome is not written: nothing ever
   * reads it (a redelivery finds the claim and stops; recovery reads `queued` claims only), and
   * the claim holds no reply to let go (a `posting` claim has none, see repository.ts). That saves
   * one store write per reply (an update of the claim: docs/performance.md, "Store writes per
   * command"). Only a crash between Kick's answer and this point loses the outcome, as before.
   */
  async function settle(reply: Reply, outcome: SendOutcome): Promise<void> {
    try {
      await publishOutcome(reply, outcome);
    } catch (error) {
      await repo.sendClaims.recordOutcome(reply.key, outcome, false);
      throw error;
    }
  }

  /**
   * Settles a reply that Kick never saw as dropped (health, chat.sent), when this caller takes it
   * (`isTaken`: its claim was stored as `posting` by this caller).
   */
  async function drop(reply: Reply, error: string, isTaken = false): Promise<void> {
    if (!isTaken && !(await repo.sendClaims.startPosting(reply.key, clock.now()))) return;
    const channel = reply.broadcasterUserId;
    const kind = await senderKindOf(await senderStateOf(channel));
    health.reply(channel, kind, 'dropped', error);
    await settle(reply, {
      isSent: false,
      error,
      messageId: '',
      content: cutToLimit(reply.content),
      sentAt: clock.now(),
    });
  }

  async function run(reply: Reply, isTaken: boolean): Promise<void> {
    const channel = reply.broadcasterUserId;
    try {
      // only the one worker that moves the claim queued → posting calls Kick (another instance's
      // recovery may have taken it while it waited here); a claim stored as `posting` is this one's
      if (!isTaken && !(await repo.sendClaims.startPosting(reply.key, clock.now()))) {
        log.info({ broadcasterUserId: channel, idempotencyKey: reply.key }, 'a reply was taken elsewhere: skipped');
        return;
      }
      const done = await deliver(reply);
      if ('result' in done) await report(channel, done);
      await settle(reply, 'result' in done ? done.outcome : done);
    } catch (err) {
      // the claim stays: a redelivery publishes a stored outcome but never posts again
      log.error({ err, broadcasterUserId: channel, idempotencyKey: reply.key }, 'a reply was lost');
    }
  }

  /**
   * Queues a claimed reply in its channel, or drops it when the channel's queue is full
   * (`isTaken`: its claim was stored as `posting`, see handle).
   */
  async function enqueue(reply: Reply, isTaken = false): Promise<void> {
    const channel = reply.broadcasterUserId;
    const waiting = queued.get(channel) ?? 0;
    if (waiting >= policy.maxQueuedPerChannel) {
      log.warn({ broadcasterUserId: channel, waiting }, 'too many replies waiting: one dropped');
      await drop(reply, queueFullMessage, isTaken);
      return;
    }
    queued.set(channel, waiting + 1);
    held.add(reply.key);
    const job = lock
      .run(channel, () => run(reply, isTaken))
      .finally(() => {
        const left = (queued.get(channel) ?? 1) - 1;
        if (left <= 0) queued.delete(channel);
        else queued.set(channel, left);
        held.delete(reply.key);
        running.delete(job);
        // new ones once they empty (every job is in all three): an old Map's table is resized in
        // the old generation, at every fill and drain (docs/performance.md, "Garbage made in the old generation")
        if (running.size === 0) {
          running = new Set();
          held = new Set();
          queued = new Map();
        }
      });
    running.add(job);
  }

  async function recover(): Promise<void> {
    const now = clock.now();
    const claims = await repo.sendClaims.queued(new Date(now.getTime() - timing.graceMs), timing.batch);
    for (const claim of claims) {
      if (!claim.reply || held.has(claim._id)) continue;
      const reply: Reply = { ...claim.reply, key: claim._id };
      try {
        if (isTooOld(reply, claim.claimedAt, now.getTime())) {
          log.warn({ broadcasterUserId: reply.broadcasterUserId, idempotencyKey: reply.key }, tooOldMessage);
          await drop(reply, tooOldMessage);
        } else {
          log.info(
            { broadcasterUserId: reply.broadcasterUserId, idempotencyKey: reply.key },
            'a queued reply recovered',
          );
          await enqueue(reply);
        }
      } catch (err) {
        log.error({ err, idempotencyKey: reply.key }, 'a queued reply could not be recovered');
      }
    }
  }

  async function recoverLogged(): Promise<void> {
    if (pass) return pass;
    pass = recover()
      .catch((err: unknown) => log.error({ err }, 'the recovery of queued replies failed'))
      .finally(() => {
        pass = undefined;
      });
    await pass;
  }

  return {
    async handle(message) {
      const key = message.idempotencyKey;
      const channel = message.broadcasterUserId;
      if (key === '' || channel === '0' || message.content.trim() === '') {
        log.warn(
          { eventId: message.eventId, broadcasterUserId: channel },
          'chat.send without an idempotency key, a channel or content: dropped',
        );
        return;
      }
      const reply = replyOf(message);
      const now = clock.now();
      if (now.getTime() - sourceAtOf(reply, now).getTime() > claimWindowMs) {
        // Older than the claims are kept: its key's claim may have expired, so whether it came
        // before cannot be told. It is not posted either way (far past maxAgeMs), and not announced:
        // were it a copy (a replay, a redelivery), a second chat.sent and a last error would report
        // a reply that was answered or reported already. A first chat.send this late (the bus or
        // kick-link stopped for longer than the window) goes unannounced too; the log tells.
        log.info(
          { broadcasterUserId: channel, idempotencyKey: key },
          'chat.send older than its claim window: dropped without a chat.sent',
        );
        return;
      }
      // Nothing waits in the channel here: the reply goes to Kick at once, so its claim is stored
      // as `posting` already, which saves the queued → posting write. (A crash before Kick is
      // called then loses this line, as a crash during the call does, instead of leaving it to
      // recovery: a window of a few milliseconds.) Replies that will wait are stored `queued`.
      const isTaken = !queued.has(channel);
      if (!(await repo.sendClaims.claim(key, now, storedOf(reply), isTaken ? 'posting' : 'queued'))) {
        // seen before: at most publish an outcome that was stored but never made it onto the bus
        const claim = await repo.sendClaims.get(key);
        if (claim?.outcome && !claim.isPublished) await publishStored(reply, claim.outcome);
        return;
      }
      await enqueue(reply, isTaken);
    },

    start() {
      if (timer) return;
      void recoverLogged();
      if (timing.intervalMs <= 0) return;
      timer = setInterval(() => void recoverLogged(), timing.intervalMs);
      timer.unref();
    },

    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await pass;
    },

    recover: recoverLogged,

    async describe(link) {
      const channel = link.kickUserId;
      const state = await repo.senderStates.get(channel);
      const bot = await botAccounts.current();
      const kind = await senderKindOf(state);
      const refusedAt = state?.botRefusedAt ?? null;
      const isFallback = kind === 'streamer-user' && mode === 'auto';
      return {
        kind,
        kickUsername: kind === 'bot-account' && bot ? bot.kickUsername : link.kickUsername,
        isFallback,
        botRefusal: isFallback ? (state?.botRefusal ?? '') : '',
        botRetryAt: isFallback && refusedAt ? new Date(refusedAt.getTime() + botRetryAfterMs).toISOString() : null,
        lastError: state?.lastError ?? '',
        lastErrorAt: state?.lastErrorAt?.toISOString() ?? null,
        botAccountUsername: mode === 'auto' && bot ? bot.kickUsername : null,
      };
    },

    async drain() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
