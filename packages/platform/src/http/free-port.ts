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
export async function freePort(
  options: { isFree?: (port: number) => Promise<boolean>; random?: () => number; rangeText?: string } = {},
): Promise<number> {
  const { isFree: check = isFree, random = Math.random } = options;
  const high = ephemeralLow(options.rangeText);
  for (let i = 0; i < attempts; i++) {
    const port = lowestPicked + Math.floor(random() * (high - lowestPicked));
    if (await check(port)) return port;
  }
  throw new Error(`no free port between ${lowestPicked} and ${high - 1} after ${attempts} tries`);
}
