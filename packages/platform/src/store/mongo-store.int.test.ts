import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { mongoDriverOptions } from './mongo-driver';
import { createMongoStore } from './mongo-store';
import { storeContract, storeContractSweepIntervalMs } from './store.contract';

/**
 * Runs the store contract against MongoDB: MONGO_URL when set (MongoDB or SecantusDB, for example
 * `eval "$(bash tools/secantus/up.sh)"`), else a mongo:7 container when a Docker engine answers,
 * else the suite is skipped with one line, unless CI=true and REQUIRE_INTEGRATION=1 demand it.
 */
type Target = { kind: 'url'; url: string } | { kind: 'docker' } | { kind: 'none' };

const target = chooseTarget();
const isRequired = process.env.CI === 'true' && process.env.REQUIRE_INTEGRATION === '1';
const dbName = `kickstand-contract-${randomUUID().slice(0, 8)}`;

function chooseTarget(): Target {
  const url = process.env.MONGO_URL;
  if (url) return { kind: 'url', url };
  return isDockerReachable() ? { kind: 'docker' } : { kind: 'none' };
}

// jest collects tests synchronously, so the asynchronous Docker check runs in a child process
function isDockerReachable(): boolean {
  const testcontainers = require.resolve('testcontainers');
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `require(${JSON.stringify(testcontainers)}).getContainerRuntimeClient().then(() => process.exit(0), () => process.exit(1))`,
    ],
    { timeout: 15_000, stdio: 'ignore' },
  );
  return probe.status === 0;
}

if (target.kind === 'none' && isRequired) {
  test('when CI requires integration suites, then MongoDB must be reachable', () => {
    throw new Error('CI=true and REQUIRE_INTEGRATION=1, but MONGO_URL is not set and no Docker engine is reachable');
  });
} else {
  if (target.kind === 'none') {
    process.stdout.write('mongo-store contract skipped: set MONGO_URL or start a Docker engine\n');
  }
  const describeWithMongo = target.kind === 'none' ? describe.skip : describe;

  describeWithMongo('mongo store', () => {
    let url = target.kind === 'url' ? target.url : '';
    let container: StartedTestContainer | undefined;

    beforeAll(async () => {
      if (target.kind !== 'docker') return;
      container = await new GenericContainer('mongo:7')
        .withExposedPorts(27017)
        .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
        .start();
      url = `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`;
    }, 180_000);

    afterAll(async () => {
      await container?.stop();
    });

    storeContract(
      `mongo (${target.kind === 'docker' ? 'mongo:7 container' : 'MONGO_URL'})`,
      (clock) => createMongoStore({ url, dbName, clock, sweepIntervalMs: storeContractSweepIntervalMs }),
      async () => {
        const connection = await mongoose.createConnection(url, { ...mongoDriverOptions, dbName }).asPromise();
        await connection.dropDatabase();
        await connection.close();
      },
    );

    test('when a TTL index exists with an earlier expiry, then creating it with a new one succeeds and expires by the new one', async () => {
      const connection = await mongoose.createConnection(url, { ...mongoDriverOptions, dbName }).asPromise();
      const name = `ttl-change-${randomUUID().slice(0, 8)}`;
      try {
        await connection.db!.collection(name).createIndex({ sentAt: 1 }, { expireAfterSeconds: 86_400 });
        const store = await createMongoStore({ url, dbName });
        try {
          await store.collection(name).createIndex({ fields: { sentAt: 1 }, expireAfterSeconds: 600 });
          const ttl = (await connection.db!.collection(name).indexes()).find((index) => index.key.sentAt === 1);
          expect(ttl?.expireAfterSeconds).toBe(600);
        } finally {
          await store.close();
        }
      } finally {
        await connection.dropDatabase();
        await connection.close();
      }
    });

    test('when the server cannot be reached, then createMongoStore rejects within the selection timeout', async () => {
      const started = Date.now();
      await expect(
        createMongoStore({ url: 'mongodb://127.0.0.1:9/', dbName, serverSelectionTimeoutMs: 300 }),
      ).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  });
}
