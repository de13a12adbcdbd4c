import { createFakeClock } from '@kickstand/platform/testing';
import { createOpenDotaClient } from './opendota-client';
import { startOpenDotaStandIn, type OpenDotaStandIn } from './testing/test-support';

let standIn: OpenDotaStandIn;
beforeAll(async () => {
  standIn = await startOpenDotaStandIn();
});
afterAll(() => standIn.close());

describe('createOpenDotaClient', () => {
  test('when the player is public, then rank tier, leaderboard rank, persona name and the rounded MMR come back', async () => {
    const client = createOpenDotaClient({ baseUrl: standIn.url, clock: createFakeClock() });
    await expect(client.player(70388657)).resolves.toEqual({
      kind: 'found',
      personaName: 'Dendi',
      rankTier: 54,
      leaderboardRank: 1234,
      estimatedMmr: 4370,
    });
  });

  test('when OpenDota gives the older mmr_estimate, or no estimate, then that is what is shown', async () => {
    const client = createOpenDotaClient({ baseUrl: `${standIn.url}/`, clock: createFakeClock() });
    await expect(client.player(111)).resolves.toMatchObject({ estimatedMmr: 7000, leaderboardRank: null });
    await expect(client.player(555)).resolves.toMatchObject({ estimatedMmr: null, rankTier: 11 });
  });

  test('when the profile is missing (private) or the account unknown (404), then the answer is private', async () => {
    const client = createOpenDotaClient({ baseUrl: standIn.url, clock: createFakeClock() });
    await expect(client.player(222)).resolves.toEqual({ kind: 'private' });
    await expect(client.player(999)).resolves.toEqual({ kind: 'private' });
  });

  test('when OpenDota is slower than the timeout, fails, or is not there, then the answer is unreachable', async () => {
    const client = createOpenDotaClient({ baseUrl: standIn.url, clock: createFakeClock(), timeoutMs: 100 });
    await expect(client.player(333)).resolves.toEqual({ kind: 'unreachable' });
    await expect(client.player(444)).resolves.toEqual({ kind: 'unreachable' });
    const nowhere = createOpenDotaClient({ baseUrl: 'http://127.0.0.1:1/api', clock: createFakeClock() });
    await expect(nowhere.player(70388657)).resolves.toEqual({ kind: 'unreachable' });
  });

  test('when the same player is asked again within 10 minutes, then the cached answer is used; after, OpenDota is asked again', async () => {
    const clock = createFakeClock();
    const client = createOpenDotaClient({ baseUrl: standIn.url, clock });
    const path = '/api/players/70388657';
    const before = standIn.requests.filter((url) => url === path).length;
    await client.player(70388657);
    clock.advance(9 * 60_000 + 59_000);
    await client.player(70388657);
    expect(standIn.requests.filter((url) => url === path).length).toBe(before + 1);
    clock.advance(1000);
    await client.player(70388657);
    expect(standIn.requests.filter((url) => url === path).length).toBe(before + 2);
  });

  test('when OpenDota failed, then the failure is not cached', async () => {
    const client = createOpenDotaClient({ baseUrl: standIn.url, clock: createFakeClock() });
    const before = standIn.requests.length;
    await client.player(444);
    await client.player(444);
    expect(standIn.requests.length).toBe(before + 2);
  });

  test('when 1000 other players were asked since, then the least recently used answer is asked again', async () => {
    const asked: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      asked.push(String(input));
      return new Response(JSON.stringify({ profile: { personaname: 'p' } }), { status: 200 });
    };
    const client = createOpenDotaClient({
      baseUrl: 'http://opendota.test/api',
      clock: createFakeClock(),
      fetch: fakeFetch,
    });
    await client.player(1);
    await client.player(2);
    for (let id = 3; id <= 1000; id += 1) await client.player(id);
    await client.player(1); // used again: 2 is now the least recently used
    await client.player(1001);
    asked.length = 0;

    await client.player(1);
    await client.player(2);

    expect(asked).toEqual(['http://opendota.test/api/players/2']);
  });
});
