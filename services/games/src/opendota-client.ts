import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Clock } from '@kickstand/platform/clock';
import type { Logger } from '@kickstand/platform/log';
import type { PlayerLookup } from './games/dota';

export const defaultOpenDotaUrl = 'https://api.opendota.com/api';

export interface OpenDotaClient {
  /** GET {base}/players/{accountId}, cached; never throws (an unreachable OpenDota is an answer too). */
  player(accountId: number): Promise<PlayerLookup>;
}

export interface OpenDotaClientOptions {
  baseUrl: string;
  clock: Clock;
  log?: Logger;
  timeoutMs?: number;
  cacheMs?: number;
  fetch?: typeof fetch;
}

// OpenDota's /players/{account_id}: `profile` is missing (or null) for a private or unknown
// account. The estimate has been `computed_mmr` lately and `mmr_estimate.estimate` before.
const playerSchema = z.object({
  profile: z.object({ personaname: z.string().nullish(), name: z.string().nullish() }).nullish(),
  rank_tier: z.number().nullish(),
  leaderboard_rank: z.number().nullish(),
  computed_mmr: z.number().nullish(),
  mmr_estimate: z.object({ estimate: z.number().nullish() }).nullish(),
});

const maxCachedPlayers = 1000;

/**
 * The OpenDota adapter: 3 s timeout, answers (found or private) cached 10 minutes per account by
 * the injected clock, failures not cached, one request at a time per account. The cache is per
 * instance, which is enough: each channel's chat is handled by one instance.
 */
export function createOpenDotaClient(options: OpenDotaClientOptions): OpenDotaClient {
  const { clock, log, timeoutMs = 3000, cacheMs = 10 * 60_000 } = options;
  const doFetch = options.fetch ?? fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  // the least recently used of the newest 1000 answers, each good for cacheMs by the injected clock
  // (ttlResolution 0: lru-cache asks the clock every time rather than caching "now" for a moment)
  const cache = new LRUCache<number, PlayerLookup>({
    max: maxCachedPlayers,
    // lru-cache keeps an entry while its age is at most ttl; ours is stale at exactly cacheMs
    ttl: cacheMs - 1,
    ttlResolution: 0,
    perf: { now: () => clock.now().getTime() },
  });
  const inFlight = new Map<number, Promise<PlayerLookup>>();

  async function request(accountId: number): Promise<PlayerLookup> {
    try {
      const response = await doFetch(`${baseUrl}/players/${accountId}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.status === 404) return { kind: 'private' };
      if (!response.ok) {
        log?.warn({ status: response.status, accountId }, 'OpenDota answered with an error');
        return { kind: 'unreachable' };
      }
      const parsed = playerSchema.safeParse(await response.json());
      if (!parsed.success) {
        log?.warn({ accountId }, 'OpenDota answered with an unexpected shape');
        return { kind: 'unreachable' };
      }
      const player = parsed.data;
      if (!player.profile) return { kind: 'private' };
      return {
        kind: 'found',
        personaName: player.profile.personaname ?? player.profile.name ?? '',
        rankTier: player.rank_tier ?? null,
        leaderboardRank: player.leaderboard_rank ?? null,
        estimatedMmr: roundOrNull(player.computed_mmr ?? player.mmr_estimate?.estimate ?? null),
      };
    } catch (error) {
      log?.warn({ err: error, accountId }, 'OpenDota could not be reached');
      return { kind: 'unreachable' };
    }
  }

  function remember(accountId: number, lookup: PlayerLookup): void {
    if (lookup.kind !== 'unreachable') cache.set(accountId, lookup);
  }

  return {
    player: async (accountId) => {
      const cached = cache.get(accountId);
      if (cached) return cached;
      const pending = inFlight.get(accountId);
      if (pending) return pending;
      const started = request(accountId).then((lookup) => {
        remember(accountId, lookup);
        return lookup;
      });
      inFlight.set(accountId, started);
      try {
        return await started;
      } finally {
        inFlight.delete(accountId);
      }
    },
  };
}

const roundOrNull = (value: number | null) => (value === null ? null : Math.round(value));
