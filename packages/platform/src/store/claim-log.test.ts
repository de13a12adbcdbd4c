import { cp, readFile, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../log/logger';
import { createSilentLogger } from '../log/logger';
import { createFakeClock, type FakeClock } from '../testing/fake-clock';
import { createTempDirs } from '../testing/temp-dirs';
import { createClaimLog } from './claim-log';
import { createEmbeddedStore } from './embedded-store';
import type { ClaimSet, Store } from './store';

const dirs = createTempDirs('claims');
afterAll(() => dirs.removeAll());

const spec = { expireAfterSeconds: 600, dateField: 'receivedAt' };
const minute = 60_000;

/** The embedded store on `dir` with its `webhook-messages` claim set open. */
async function openClaims(dir: string, clock: FakeClock): Promise<{ store: Store; claims: ClaimSet }> {
  const store = await createEmbeddedStore({ dir, clock });
  const claims = store.claimSet('webhook-messages', spec);
  await claims.open();
  return { store, claims };
}

/** A logger that keeps its warnings' messages. */
function warningsLog(): { log: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const log = createSilentLogger();
  log.warn = ((_fields: unknown, message?: string) => {
    warnings.push(message ?? '');
  }) as Logger['warn'];
  return { log, warnings };
}

describe('the embedded store claim set (claim-log.ts)', () => {
  test('when the store restarts, then a claim taken before is still held, a released one is free, an expired one is gone', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const first = await openClaims(dir, clock);
    expect(await first.claims.claim('old', clock.now())).toBe(true);
    clock.advance(5 * minute);
    expect(await first.claims.claim('kept', clock.now())).toBe(true);
    expect(await first.claims.claim('released', clock.now())).toBe(true);
    await first.claims.release('released');
    await first.store.close();

    clock.advance(5 * minute + 1); // 'old' is 10 min + 1 ms old: expired
    const second = await openClaims(dir, clock);
    expect(await second.claims.claim('kept', clock.now())).toBe(false);
    expect(await second.claims.claim('released', clock.now())).toBe(true);
    expect(await second.claims.claim('old', clock.now())).toBe(true);
    await second.store.close();
  });

  test('when the store restarts, then has still tells the claims held before it', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const first = await openClaims(dir, clock);
    await first.claims.claim('kept', clock.now());
    await first.store.close();
    clock.advance(10 * minute);
    const second = await openClaims(dir, clock);
    expect(await second.claims.has('kept')).toBe(true);
    expect(await second.claims.has('never')).toBe(false);
    clock.advance(1);
    expect(await second.claims.has('kept')).toBe(false);
    await second.store.close();
  });

  test('when a claim resolves, then its line is in the log already (a crash right after loses nothing)', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const { store, claims } = await openClaims(dir, clock);
    await claims.claim('m1', clock.now());
    // a copy taken now, without closing, stands for the folder a crash leaves behind
    const copy = await dirs.make();
    await cp(path.join(dir, 'webhook-messages.claims'), path.join(copy, 'webhook-messages.claims'), {
      recursive: true,
    });
    const restarted = await openClaims(copy, clock);
    expect(await restarted.claims.claim('m1', clock.now())).toBe(false);
    await restarted.store.close();
    await store.close();
  });

  test('when claims of one turn are pending as the store closes, then they are written in one batch and held after a restart', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const { store, claims } = await openClaims(dir, clock);
    const pending = ['a', 'b', 'c'].map((id) => claims.claim(id, clock.now()));
    await store.close();
    expect(await Promise.all(pending)).toEqual([true, true, true]);
    const files = await readdir(path.join(dir, 'webhook-messages.claims'));
    expect(files).toEqual(['000000000000.log']);
    const at = clock.now().getTime();
    expect(await readFile(path.join(dir, 'webhook-messages.claims', files[0] ?? ''), 'utf8')).toBe(
      `+${at} "a"\n+${at} "b"\n+${at} "c"\n`,
    );
    const restarted = await openClaims(dir, clock);
    expect(await Promise.all(['a', 'b', 'c', 'd'].map((id) => restarted.claims.claim(id, clock.now())))).toEqual([
      false,
      false,
      false,
      true,
    ]);
    await restarted.store.close();
  });

  test('when more claims are taken than the bound, then the oldest are forgotten and a warning says so', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const { log, warnings } = warningsLog();
    const claims = createClaimLog({ dir, expireAfterMs: 10 * minute, maxClaims: 3, clock, log });
    await claims.open();
    for (const id of ['m1', 'm2', 'm3', 'm4']) expect(await claims.claim(id, clock.now())).toBe(true);
    expect(warnings).toEqual(['too many claims held: the oldest are forgotten before they expire']);
    // m1 was forgotten: taken again (which forgets m2); m3 and m4 are still held
    expect(await claims.claim('m1', clock.now())).toBe(true);
    expect(await claims.claim('m3', clock.now())).toBe(false);
    expect(await claims.claim('m4', clock.now())).toBe(false);
    await claims.close();

    // the bound holds while replaying a log that has more
    const replayed = createClaimLog({ dir, expireAfterMs: 10 * minute, maxClaims: 3, clock, log });
    await replayed.open();
    expect(await replayed.claim('m2', clock.now())).toBe(true);
    expect(await replayed.claim('m4', clock.now())).toBe(false);
    await replayed.close();
  });

  test('when a claim is released, then its place still counts toward the bound until the oldest pass it', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const claims = createClaimLog({ dir, expireAfterMs: 10 * minute, maxClaims: 3, clock, log: createSilentLogger() });
    await claims.open();
    for (const id of ['m1', 'm2', 'm3']) expect(await claims.claim(id, clock.now())).toBe(true);
    await claims.release('m2');
    // m2's place is a hole now: m4 makes 4 places, so the oldest place (m1) goes, the hole stays
    expect(await claims.claim('m4', clock.now())).toBe(true);
    expect(await claims.has('m1')).toBe(false);
    expect(await claims.has('m3')).toBe(true);
    // m5: the hole is the oldest place now and goes first, so m3 stays
    expect(await claims.claim('m5', clock.now())).toBe(true);
    expect([await claims.has('m3'), await claims.has('m4'), await claims.has('m5')]).toEqual([true, true, true]);
    await claims.close();
  });

  test('when Kick-shaped ids are claimed, then each is refused up to its expiry to the millisecond and taken again after', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const claims = createClaimLog({
      dir,
      expireAfterMs: 10 * minute,
      maxClaims: 100,
      clock,
      log: createSilentLogger(),
    });
    await claims.open();
    const ids = ['01HZX3Q8M4K2N7P9R5T6V8W0YZ', 'reply:9c1e0f7a-2b44-4c1d-8a53-51f0c2d0b6e1', 'h_0f3a'];
    for (const id of ids) expect(await claims.claim(id, clock.now())).toBe(true);
    clock.advance(10 * minute);
    for (const id of ids) expect(await claims.claim(id, clock.now())).toBe(false);
    clock.advance(1);
    for (const id of ids) expect(await claims.claim(id, clock.now())).toBe(true);
    await claims.close();
  });

  test('when a claim forgotten beyond the bound is released, then the release is logged and a restart does not bring it back', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const log = createSilentLogger();
    const claims = createClaimLog({ dir, expireAfterMs: 10 * minute, maxClaims: 1, clock, log });
    await claims.open();
    await claims.claim('m1', clock.now());
    await claims.claim('m2', clock.now()); // m1 forgotten
    await claims.release('m1');
    await claims.close();
    const replayed = createClaimLog({ dir, expireAfterMs: 10 * minute, maxClaims: 2, clock, log });
    await replayed.open();
    expect(await replayed.claim('m1', clock.now())).toBe(true);
    expect(await replayed.claim('m2', clock.now())).toBe(false);
    await replayed.close();
  });

  test('when every claim of a segment has expired, then its file is deleted, and a newer one kept', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const claims = createClaimLog({
      dir,
      expireAfterMs: 10 * minute,
      maxClaims: 100,
      clock,
      log: createSilentLogger(),
      segmentMs: minute,
    });
    await claims.open();
    await claims.claim('first', clock.now());
    clock.advance(minute); // the next write begins segment 1
    await claims.claim('second', clock.now());
    expect(await readdir(dir)).toEqual(['000000000000.log', '000000000001.log']);
    clock.advance(9 * minute + 1); // 'first' expired, 'second' not yet
    await claims.claim('third', clock.now());
    await claims.close(); // waits for the deletion (in the thread pool)
    expect(await readdir(dir)).toEqual(['000000000001.log', '000000000002.log']);
  });

  test('when the last line was cut short by a crash, then the log is read without it and a warning says so', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const at = clock.now().getTime();
    await writeFile(path.join(dir, '000000000007.log'), `+${at} "whole"\n+${at} "cut`);
    const { log, warnings } = warningsLog();
    const claims = createClaimLog({ dir, expireAfterMs: 10 * minute, maxClaims: 100, clock, log });
    await claims.open();
    expect(warnings).toEqual(['claim log lines that could not be read were skipped']);
    expect(await claims.claim('whole', clock.now())).toBe(false);
    expect(await claims.claim('cut', clock.now())).toBe(true);
    await claims.close();
    // the cut file is never appended to: the new claim went to a segment of its own
    expect(await readdir(dir)).toEqual(['000000000007.log', '000000000008.log']);
  });

  test('when a line has a date that is not whole milliseconds, then it is skipped with the warning, the others read', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const at = clock.now().getTime();
    await writeFile(path.join(dir, '000000000003.log'), `+${at}.5 "half"\n+${at} "whole"\n`);
    const { log, warnings } = warningsLog();
    const claims = createClaimLog({ dir, expireAfterMs: 10 * minute, maxClaims: 100, clock, log });
    await claims.open();
    expect(warnings).toEqual(['claim log lines that could not be read were skipped']);
    expect(await claims.claimedAt('whole')).toEqual(new Date(at));
    expect(await claims.claim('half', clock.now())).toBe(true);
    await claims.close();
  });

  test('when an id holds a newline or quotes, then it is logged as one line and read back as it was', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    const odd = 'a "b"\nc';
    const first = await openClaims(dir, clock);
    await first.claims.claim(odd, clock.now());
    await first.store.close();
    const second = await openClaims(dir, clock);
    expect(await second.claims.claim(odd, clock.now())).toBe(false);
    await second.store.close();
  });

  test('when the former datafile of the claims is there, then opening the claim set deletes it', async () => {
    const dir = await dirs.make();
    const clock = createFakeClock();
    await writeFile(path.join(dir, 'webhook-messages.db'), '{"_id":"x","receivedAt":{"$$date":1}}\n');
    const { store } = await openClaims(dir, clock);
    expect(existsSync(path.join(dir, 'webhook-messages.db'))).toBe(false);
    await store.close();
  });

  test('when a claim set has the name of a collection in use, then it is refused', async () => {
    const dir = await dirs.make();
    const store = await createEmbeddedStore({ dir, clock: createFakeClock() });
    await store.collection('webhook-messages').count();
    expect(() => store.claimSet('webhook-messages', spec)).toThrow(
      '"webhook-messages" is a collection of this store, not a claim set',
    );
    await store.close();
  });
});
