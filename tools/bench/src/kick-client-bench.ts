import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import type * as KickClientModule from '@kickstand/kick-link/kick-client';
import { benchKickTuning, createReplyPath } from './kick-reply-path';

/**
 * The reply path's HTTP client (issue 22 item 2): N chat lines posted with kick-link's KickClient
 * (`sendChat`, as chat-sender posts each reply) to a local server that answers POST /public/v1/chat
 * as the Kick sandbox does. The server runs in a child process, so process.cpuUsage() of this
 * process is the client's CPU alone (the server's is reported apart, from its own cpuUsage).
 * `--path reply` posts them through kick-link's whole reply path instead (chat-sender, its store
 * writes, kick-tokens: kick-reply-path.ts), so the figure is kick-link's CPU per reply.
 * `--client` loads another build's kick-client.js (e.g. main's, which used fetch) and, with
 * `--path reply`, that build's chat-sender, kick-tokens and platform, for a before/after:
 *   npm run bench:kick-client -- --requests 20000 --concurrency 8 [--path client|reply]
 *   npm run bench:kick-client -- --client /work/main/services/kick-link/dist/kick-client.js
 */

type KickClientModuleShape = typeof KickClientModule;

/** The sandbox's answer to POST /chat, with the headers Express sends with it. */
function serve(): void {
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests += 1;
      const sent = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { content?: unknown };
      if (req.method !== 'POST' || req.url !== '/public/v1/chat' || typeof sent.content !== 'string') {
        res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ data: null, message: 'Not found' }));
        return;
      }
      const body = JSON.stringify({ data: { is_sent: true, message_id: randomUUID() }, message: 'OK' });
      res.writeHead(200, {
        'x-powered-by': 'Express',
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        etag: `W/"${Buffer.byteLength(body).toString(16)}-${requests.toString(36)}"`,
      });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
  process.on('message', (message: { stop?: boolean }) => {
    if (!message.stop) return;
    const cpu = process.cpuUsage();
    process.send?.({ cpuMicros: cpu.user + cpu.system, requests }, () => process.exit(0));
  });
}

interface Ready {
  port: number;
}
interface Stopped {
  cpuMicros: number;
  requests: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      serve: { type: 'boolean', default: false },
      requests: { type: 'string', default: '20000' },
      concurrency: { type: 'string', default: '8' },
      warmup: { type: 'string', default: '2000' },
      client: { type: 'string' },
      path: { type: 'string', default: 'client' },
      channels: { type: 'string', default: '200' },
    },
  });
  if (values.serve) {
    serve();
    return;
  }
  const count = Number(values.requests);
  const concurrency = Number(values.concurrency);
  const warmup = Number(values.warmup);
  if (values.path !== 'client' && values.path !== 'reply') throw new Error('--path client | reply');
  const clientPath = values.client ?? require.resolve('@kickstand/kick-link/kick-client');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a build chosen at run time
  const { createKickClient } = require(clientPath) as KickClientModuleShape;

  const server = fork(__filename, ['--serve']);
  const ready = await new Promise<Ready>((resolve) => server.once('message', (message) => resolve(message as Ready)));
  const origin = `http://127.0.0.1:${ready.port}`;
  const kick = createKickClient({
    connection: {
      clientId: 'bench',
      clientSecret: 'bench',
      redirectUri: 'http://localhost/cb',
      oauthUrl: origin,
      apiUrl: `${origin}/public/v1`,
    },
    tuning: benchKickTuning,
  });
  // a reply as chat-sender posts it: as the bot (type bot), in reply to the command's message
  const token = 'eyJhbGciOiJIUzI1NiJ9.bench-access-token.0123456789abcdef';
  const post = (index: number) =>
    kick.sendChat(token, {
      type: 'bot',
      content: `@viewer${index % 1000} the current song is "Something" (${index})`,
      replyToMessageId: randomUUID(),
    });

  /** `total` posts, `concurrency` in flight (replies of different channels go out side by side). */
  async function postAll(total: number): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          const sent = await post(next++);
          if (!sent.isSent) throw new Error('the server did not post a line');
        }
      }),
    );
  }
  const replyPath =
    values.path === 'reply'
      ? await createReplyPath({ kickClientPath: clientPath, origin, channels: Number(values.channels), concurrency })
      : undefined;
  const run = (total: number) => (replyPath ? replyPath.reply(total) : postAll(total));

  await run(warmup);
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  await run(count);
  const wallMs = performance.now() - startedAt;
  const cpu = process.cpuUsage(cpuBefore);

  await replyPath?.close();
  server.send({ stop: true });
  const stopped = await new Promise<Stopped>((resolve) =>
    server.once('message', (message) => resolve(message as Stopped)),
  );
  console.log(
    JSON.stringify({
      client: clientPath,
      path: values.path,
      requests: count,
      concurrency,
      clientCpuMicrosPerRequest: Number(((cpu.user + cpu.system) / count).toFixed(1)),
      clientUserMicrosPerRequest: Number((cpu.user / count).toFixed(1)),
      clientSystemMicrosPerRequest: Number((cpu.system / count).toFixed(1)),
      // the whole run's, warm-up included: for scale only
      serverCpuMicrosPerRequest: Number((stopped.cpuMicros / stopped.requests).toFixed(1)),
      requestsPerSecond: Math.round((count / wallMs) * 1000),
      rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
    }),
  );
  // the keep-alive sockets are unref'ed, but a fetch-based build's are not: exit explicitly
  process.exit(0);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
