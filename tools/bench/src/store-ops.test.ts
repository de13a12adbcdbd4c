import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { candidates, runCandidate } from './store-bench';
import type { HotPathOps } from './store-ops';

const tempDirs: string[] = [];

afterAll(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function opsOf(name: keyof typeof candidates): Promise<HotPathOps> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kickstand-store-ops-'));
  tempDirs.push(dir);
  return candidates[name](dir);
}

// the bench compares candidates only if they do the same work: each must give the same answers
describe.each(['nedb', 'lmdb', 'memlog'] as const)('hot-path store operations on %s', (name) => {
  test('when a message id is claimed twice, then the second claim is a duplicate and the claim reads back', async () => {
    const ops = await opsOf(name);
    const at = new Date('2100-01-01T00:00:00.005Z');
    expect(await ops.claim('m1', at)).toBe('claimed');
    expect(await ops.claim('m1', at)).toBe('duplicate');
    expect(await ops.readClaim('m1')).toEqual({ _id: 'm1', claimedAt: at });
    expect(await ops.readClaim('m2')).toBeNull();
    await ops.close();
  });

  test('when a counter is bumped three times, then it returns 1, 2 and 3', async () => {
    const ops = await opsOf(name);
    expect([await ops.bump('c'), await ops.bump('c'), await ops.bump('c')]).toEqual([1, 2, 3]);
    expect(await ops.bump('other')).toBe(1);
    await ops.close();
  });

  test('when claims are swept before a cutoff, then exactly the older ones are removed', async () => {
    const ops = await opsOf(name);
    await ops.claim('old1', new Date('2100-01-01T00:00:00Z'));
    await ops.claim('old2', new Date('2100-01-01T00:00:01Z'));
    await ops.claim('new', new Date('2100-01-01T00:00:02Z'));
    await ops.logBatch([
      { _id: 'l1', channel: 'c', sender: 's', content: 'hi', sentAt: new Date('2100-01-01T00:00:00Z') },
    ]);
    expect(await ops.purgeClaimsBefore(new Date('2100-01-01T00:00:02Z'))).toBe(2);
    expect(await ops.readClaim('old1')).toBeNull();
    expect(await ops.readClaim('new')).toEqual({ _id: 'new', claimedAt: new Date('2100-01-01T00:00:02Z') });
    await ops.close();
  });

  test('when the bench runs 25 messages, then it counts 25 messages and sweeps 25 claims', async () => {
    const result = await runCandidate(name, 25);
    expect(result.candidate).toBe(name);
    expect(result.messages.ops).toBe(25);
    expect(result.sweep.ops).toBe(25);
  });
});
