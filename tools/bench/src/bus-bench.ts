import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createInProcessBus, kickstandTopics, type KickstandBus, type TopicInit } from '@kickstand/platform/bus';
import { createSilentLogger } from '@kickstand/platform/log';
import { instrumentBus, processMetrics } from '@kickstand/platform/metrics';

/**
 * The in-process bus alone (issue 22 item 2): N `chat.received` messages, as kick-link publishes
 * them, through the bus single-machine mode shares, to the consumer groups the product has on
 * that topic, each behind its service's `instrumentBus` as `connectPlatform` wires it. The
 * handlers do nothing but read a field, so what is measured is the bus: the message's copy (an
 * encode and a decode before its second round), queues, delivery, metrics. Reports this process's CPU µs per published message (process.cpuUsage),
 * the GC time per message, and (in a second pass, chunks of 10) the heap allocated per message:
 * heapUsed growth over the chunks no GC interrupted.
 *
 * npm run bench:bus -- [--messages 200000] [--chunk 100] [--freeze on|off]
 *   --chunk: messages published before the deliveries catch up (a setImmediate), as a burst of
 *   webhooks in one turn of the event loop.
 */

const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '200000' },
    chunk: { type: 'string', default: '100' },
    freeze: { type: 'string' },
  },
});
const messageCount = Number(values.messages);
const chunkSize = Number(values.chunk);

/**
 * The groups that read `chat.received` in single-machine mode, by service (services/*: the
 * `bus.subscribe('chat.received', …)` calls): bot-runner's commands, moderation and timers' line
 * count; games; realtime's sockets (a group of its instance) and its analytics.
 */
const chatReceivedGroups: ReadonlyArray<{ service: string; group: string }> = [
  { service: 'bot-runner', group: 'bot-runner' },
  { service: 'bot-runner', group: 'bot-runner.moderation' },
  { service: 'bot-runner', group: 'bot-runner.timers' },
  { service: 'games', group: 'games' },
  { service: 'realtime', group: 'realtime.instance.bench' },
  { service: 'realtime', group: 'realtime' },
];

type ChatReceivedInit = TopicInit<'chat.received'>;

/** A chat line as kick-link's `toChatReceived` makes it from Kick's chat.message.sent; a fifth are commands. */
function chatLine(i: number, now: number): ChatReceivedInit {
  const channel = i % 1000;
  const viewer = (i * 7919) % 10_000;
  const seconds = BigInt(Math.floor(now / 1000));
  const at = { seconds, nanos: (now % 1000) * 1_000_000 };
  const isCommand = i % 5 === 0;
  const id = `01JD${String(i).padStart(22, '0')}`;
  return {
    eventId: `kick:${id}`,
    occurredAt: at,
    kickMessageId: id,
    messageId: `6f1c2a3e-${String(i).padStart(4, '0').slice(-4)}-4b5c-9d8e-${String(i).padStart(12, '0').slice(-12)}`,
    broadcasterUserId: String(100_000 + channel),
    broadcasterUsername: `streamer_${channel}`,
    broadcasterChannelSlug: `streamer-${channel}`,
    ownerUserId: `user-${channel}-b3f1c0de`,
    sender: {
      userId: String(5_000_000 + viewer),
      username: `viewer_${viewer}`,
      isVerified: viewer % 50 === 0,
      channelSlug: `viewer-${viewer}`,
      profilePicture: viewer % 3 === 0 ? `https://files.kick.com/images/user/${viewer}/profile_image/x.webp` : '',
      identity: {
        usernameColor: '#1475E1',
        badges: viewer % 4 === 0 ? [{ text: 'Subscriber', type: 'subscriber', count: 3 }] : [],
      },
    },
    content: isCommand ? `$c${i % 8}` : `that was a great play, gg everyone ${i % 97} [emote:39261:kkHuh]`,
    emotes: isCommand ? [] : [{ emoteId: '39261', positions: [{ s: 38, e: 55 }] }],
    createdAt: at,
    receivedAt: at,
    isFromBot: false,
  };
}

async function main(): Promise<void> {
  if (!Number.isInteger(messageCount) || messageCount < 1) throw new Error('--messages is a positive integer');
  if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new Error('--chunk is a positive integer');
  const freeze = values.freeze === undefined ? undefined : values.freeze === 'on';
  const metrics = processMetrics();
  const shared = createInProcessBus({
    topics: kickstandTopics,
    log: createSilentLogger(),
    ...(freeze === undefined ? {} : { freezeMessages: freeze }),
  });
  const busOf = (service: string): KickstandBus => instrumentBus(shared, service, metrics, 5);

  let delivered = 0;
  let contentChars = 0;
  for (const { service, group } of chatReceivedGroups) {
    await busOf(service).subscribe('chat.received', group, async (message) => {
      contentChars += message.content.length;
      delivered++;
    });
  }
  const kickLink = busOf('kick-link');
  const now = Date.now();
  // made beforehand: building them is kick-link's work, not the bus's
  const lines = Array.from({ length: 1000 }, (_, i) => chatLine(i, now));
  const catchUp = () => new Promise<void>((resolve) => setImmediate(resolve));
  const publishChunk = async (from: number, count: number) => {
    for (let i = from; i < from + count; i++) {
      const line = lines[i % lines.length] as ChatReceivedInit;
      await kickLink.publish('chat.received', line.broadcasterUserId as string, line);
    }
    await catchUp();
  };

  // warm-up: the JIT, the queues, the metrics' series
  for (let i = 0; i < 20_000; i += chunkSize) await publishChunk(i, chunkSize);

  let gcMs = 0;
  let gcCount = 0;
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcMs += entry.duration;
      gcCount++;
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  delivered = 0;
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < messageCount; i += chunkSize) await publishChunk(i, Math.min(chunkSize, messageCount - i));
  const cpu = process.cpuUsage(cpuBefore);
  await new Promise((resolve) => setTimeout(resolve, 50)); // the last GC entries
  gcObserver.disconnect();

  // A pass of its own for the allocation: reading the heap costs CPU (process.memoryUsage
  // reads /proc), which must not count in the figure above. Chunks of 10 are small next to
  // the young generation, so most run without a GC.
  const allocationChunk = 10;
  const allocationMessages = Math.max(allocationChunk, Math.floor(messageCount / 5));
  let allocated = 0;
  let allocatedChunks = 0;
  let heapBefore = process.memoryUsage().heapUsed;
  for (let i = 0; i < allocationMessages; i += allocationChunk) {
    await publishChunk(i, allocationChunk);
    const heap = process.memoryUsage().heapUsed;
    // a drop means a GC ran during the chunk: its allocation is unknown, so it is left out
    if (heap >= heapBefore) {
      allocated += heap - heapBefore;
      allocatedChunks++;
    }
    heapBefore = heap;
  }
  const expected =
    (messageCount + Math.ceil(allocationMessages / allocationChunk) * allocationChunk) * chatReceivedGroups.length;
  if (delivered !== expected) throw new Error(`delivered ${delivered}, expected ${expected}`);
  const measuredMessages = allocatedChunks * allocationChunk;
  console.log(
    JSON.stringify({
      messages: messageCount,
      groups: chatReceivedGroups.length,
      chunk: chunkSize,
      freeze: freeze ?? 'default',
      cpuMicrosPerMessage: Number(((cpu.user + cpu.system) / messageCount).toFixed(2)),
      heapBytesPerMessage: Math.round(allocated / measuredMessages),
      gcMicrosPerMessage: Number(((gcMs * 1000) / messageCount).toFixed(2)),
      gcCount,
      contentChars,
    }),
  );
  await shared.stop();
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
