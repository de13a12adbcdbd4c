import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Linux's default first ephemeral port (net.ipv4.ip_local_port_range), where /proc cannot be read. */
const defaultEphemeralLow = 32768;
const lowestPicked = 20000;
const attempts = 100;

/** The first port the system hands out to a `listen(0)` or an outgoing connection. */
export function ephemeralLow(rangeText?: string): number {
  let text = rangeText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
    } catch {
      return defaultEphemeralLow;
    }
  }
  const low = Number(text.trim().split(/\s+/)[0]);
  return Number.isInteger(low) && low > lowestPicked ? low : defaultEphemeralLow;
}

export interface FreePortOptions {
  isFree?: (port: number) => Promise<boolean>;
  random?: () => number;
  rangeText?: string;
}

const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A port nobody listens on right now, below the ephemeral range, for a URL that must be known before
 * its server listens (single-machine's `PORT=0`, the bench's deployments). A port the system picked
 * itself (`listen(0)`) is free only until the next `listen(0)`: Kickstand opens a few of those (its
 * services' own ports) before its front door takes the public port, and once one of them was given
 * the very port the bench had picked (EADDRINUSE, every delivery refused). Below the range no
 * `listen(0)` and no outgoing connection can take it.
 */
export async function freePort(options: FreePortOptions = {}): Promise<number> {
  return freePortBlock(1, options);
}

/**
 * The first of `size` consecutive free ports below the ephemeral range, for a deployment whose ports
 * are its base plus fixed offsets (start-distributed: the gateway on PORT, the services on PORT+1…).
 * A block picked across the whole range once lost a bot-runner's port to a Kafka client's outgoing
 * connection: every restart on that port failed with EADDRINUSE for as long as the connection lived.
 */
export async function freePortBlock(size: number, options: FreePortOptions = {}): Promise<number> {
  const { isFree: check = isFree, random = Math.random } = options;
  const high = ephemeralLow(options.rangeText) - size + 1;
  if (!Number.isInteger(size) || size < 1 || high <= lowestPicked)
    throw new Error(`no block of ${size} ports fits between ${lowestPicked} and the ephemeral range`);
  for (let i = 0; i < attempts; i++) {
    const base = lowestPicked + Math.floor(random() * (high - lowestPicked));
    const ports = Array.from({ length: size }, (_, offset) => base + offset);
    if ((await Promise.all(ports.map(check))).every(Boolean)) return base;
  }
  throw new Error(
    `no ${size} free ports in a row between ${lowestPicked} and ${high + size - 2} after ${attempts} tries`,
  );
}
