import { cookieHeaderFrom } from '@kickstand/platform/testing';
import type { BenchChannel } from './workload';

/**
 * Makes C channels the way streamers do, through the gateway: register, link the Kick account
 * (the sandbox approves at once with `sandbox_auto_approve`), add custom commands, start the bot;
 * then waits until every bot says it is connected. Registration hashes passwords with argon2 on
 * purpose, so this takes about a minute for 1,000 channels; the bench keeps the result (see
 * main.ts) and copies it for every run.
 */

export interface SetupOptions {
  gatewayUrl: string;
  sandboxUrl: string;
  count: number;
  commandsPerChannel: number;
  parallelism: number;
  progress: (line: string) => void;
}

export const commandName = (k: number): string => `c${k}`;
const benchPassword = 'Bench-pass-1!';

interface Json {
  success?: boolean;
  data?: unknown;
  error?: string;
}

async function call(
  method: string,
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; json: Json; location: string | null; cookie: string }> {
  const response = await fetch(url, {
    method,
    redirect: 'manual',
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: Json = {};
  try {
    json = text ? (JSON.parse(text) as Json) : {};
  } catch {
    json = { error: text.slice(0, 200) };
  }
  // the Cookie header a browser would send back after this answer (the OAuth link's cookie)
  const cookie = cookieHeaderFrom(response);
  return { status: response.status, json, location: response.headers.get('location'), cookie };
}

function expectStatus(what: string, answer: { status: number; json: Json }, ...ok: number[]): void {
  if (!ok.includes(answer.status)) {
    throw new Error(`${what}: HTTP ${answer.status} ${answer.json.error ?? JSON.stringify(answer.json).slice(0, 200)}`);
  }
}

async function inParallel<T>(count: number, parallelism: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallelism, count) }, async () => {
      for (let i = next++; i < count; i = next++) results[i] = await work(i);
    }),
  );
  return results;
}

async function setUpChannel(options: SetupOptions, i: number): Promise<Omit<BenchChannel, 'subscriptionId'>> {
  const { gatewayUrl, sandboxUrl } = options;
  const username = `bench_${i}`;
  const kickUsername = `bench_kick_${i}`;
  // each streamer registers from an address of their own (auth allows 10 attempts a minute per address)
  const forwardedFor = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const registered = await call('POST', `${gatewayUrl}/api/platform/register`, {
    body: { email: `${username}@bench.example`, username, password: benchPassword },
    headers: { 'x-forwarded-for': forwardedFor },
  });
  expectStatus(`register ${username}`, registered, 201);
  const { token, user } = registered.json.data as { token: string; user: { id: string } };

  const link = await call('POST', `${gatewayUrl}/api/platform/kick/link`, { token });
  expectStatus(`link ${username}`, link, 200);
  const authUrl = (link.json.data as { authUrl: string }).authUrl;
  const approved = await call('GET', `${authUrl}&sandbox_auto_approve=${kickUsername}`);
  expectStatus(`authorize ${kickUsername}`, approved, 302, 303);
  // the callback goes on only in the "browser" that started the link: it brings the start's cookie
  const callback = await call('GET', approved.location ?? '', { headers: { cookie: link.cookie } });
  if (!callback.location?.includes('kick_linked=true')) {
    throw new Error(`link ${username}: the callback sent the browser to ${callback.location}`);
  }

  const commands: string[] = [];
  for (let k = 0; k < options.commandsPerChannel; k++) {
    const command = commandName(k);
    // half of the replies count their runs ({count}); all of them name who asked
    const response = k % 2 === 0 ? `{user} asked for ${command} ({count})` : `reply to {user}: ${command} {touser}`;
    expectStatus(
      `add $${command} for ${username}`,
      await call('POST', `${gatewayUrl}/api/commands`, { token, body: { command, response } }),
      201,
    );
    commands.push(command);
  }
  // bot-runner learns of the link from kick.account, a moment after the callback: try again until it has
  for (let attempt = 1; ; attempt++) {
    const started = await call('POST', `${gatewayUrl}/api/platform/bot/start`, { token });
    if (started.status === 200) break;
    if (started.status !== 400 || attempt >= 60) expectStatus(`start the bot of ${username}`, started, 200);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  const kickUser = await call('GET', `${sandboxUrl}/sandbox/api/users/${kickUsername}`);
  expectStatus(`sandbox user ${kickUsername}`, kickUser, 200);
  const kickUserId = (kickUser.json.data as { userId: number }).userId;
  return { userId: user.id, username, kickUserId, kickUsername, commands };
}

export async function setUpChannels(options: SetupOptions): Promise<BenchChannel[]> {
  const started = Date.now();
  let done = 0;
  const made = await inParallel(options.count, options.parallelism, async (i) => {
    const channel = await setUpChannel(options, i);
    done++;
    if (done % 100 === 0 || done === options.count) {
      options.progress(`  ${done}/${options.count} channels set up (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }
    return channel;
  });

  // every bot connected: kick-link subscribed the channel's chat at Kick
  const subscriptions = await waitForSubscriptions(options.sandboxUrl, made.length);
  return made.map((channel) => {
    const subscriptionId = subscriptions.get(channel.kickUserId);
    if (!subscriptionId) throw new Error(`no chat subscription for ${channel.kickUsername}`);
    return { ...channel, subscriptionId };
  });
}

/** Waits until every bot is running, connected and knows its commands; the problems left after `timeoutMs`. */
export async function waitForBots(
  gatewayUrl: string,
  channels: readonly BenchChannel[],
  tokenOf: (channel: BenchChannel) => string,
  timeoutMs: number,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problems = await checkBots(gatewayUrl, channels, tokenOf);
    if (problems.length === 0 || Date.now() > deadline) return problems;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

async function waitForSubscriptions(sandboxUrl: string, count: number): Promise<Map<number, string>> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const answer = await call('GET', `${sandboxUrl}/sandbox/api/subscriptions`);
    const list = (answer.json.data ?? []) as { id: string; broadcasterUserId: number; event: string }[];
    const chat = new Map(list.filter((s) => s.event === 'chat.message.sent').map((s) => [s.broadcasterUserId, s.id]));
    if (chat.size >= count) return chat;
    if (Date.now() > deadline)
      throw new Error(`only ${chat.size} of ${count} bots subscribed the chat within 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Every bot running, connected and knowing its commands, as its streamer's dashboard shows it. */
export async function checkBots(
  gatewayUrl: string,
  channels: readonly BenchChannel[],
  tokenOf: (channel: BenchChannel) => string,
  sample = channels.length,
): Promise<string[]> {
  const step = Math.max(1, Math.floor(channels.length / sample));
  const picked = channels.filter((_, i) => i % step === 0);
  const problems: string[] = [];
  await inParallel(picked.length, 20, async (i) => {
    const channel = picked[i] as BenchChannel;
    const answer = await call('GET', `${gatewayUrl}/api/platform/bot/status`, { token: tokenOf(channel) });
    const status = answer.json.data as { isRunning?: boolean; isConnected?: boolean; commands?: number } | undefined;
    // the bot knows the channel's commands (plus the default $test) from command.changed
    const hasCommands = (status?.commands ?? 0) >= channel.commands.length;
    if (answer.status !== 200 || !status?.isRunning || !status.isConnected || !hasCommands) {
      problems.push(`${channel.username}: HTTP ${answer.status} ${JSON.stringify(answer.json).slice(0, 160)}`);
    }
  });
  return problems;
}
