import { defaultModerationFilters, type ModerationFilters } from '@kickstand/api-contract';
import { createFakeClock, createTestStore, type TestStore } from '@kickstand/platform/testing';
import type { Document, Filter, Store } from '@kickstand/platform/store';
import { createModerationRepository, type ModerationSettingsDoc } from './moderation-repository';

const capsOn: ModerationFilters = {
  ...defaultModerationFilters,
  caps: { ...defaultModerationFilters.caps, enabled: true },
};

describe('the moderation filters cache', () => {
  let test_: TestStore;
  beforeEach(async () => {
    test_ = await createTestStore('moderation-repository');
  });
  afterEach(async () => {
    await test_.close();
  });

  /** Writes a streamer's filters behind the repository's back, as another instance would. */
  const writeBehind = (userId: string, filters: ModerationFilters) =>
    test_.store
      .collection<ModerationSettingsDoc>('moderation-settings')
      .updateOne({ _id: userId }, { $set: { filters } }, { upsert: true });

  test('when filters were read, then they are read from memory for 10 s, and from the store after', async () => {
    const clock = createFakeClock();
    const repo = createModerationRepository(test_.store, { clock });
    expect(await repo.filters('u1')).toEqual(defaultModerationFilters);
    await writeBehind('u1', capsOn);
    clock.advance(9_999);
    expect(await repo.filters('u1')).toEqual(defaultModerationFilters);
    clock.advance(1);
    expect(await repo.filters('u1')).toEqual(capsOn);
  });

  test('when filters are saved, then the next read has them at once', async () => {
    const clock = createFakeClock();
    const repo = createModerationRepository(test_.store, { clock });
    expect(await repo.filters('u1')).toEqual(defaultModerationFilters);
    await repo.saveFilters('u1', capsOn);
    expect(await repo.filters('u1')).toEqual(capsOn);
  });

  test('when more streamers are read than the bound, then the longest held is forgotten and read again', async () => {
    const clock = createFakeClock();
    const repo = createModerationRepository(test_.store, { clock, filtersCache: { maxEntries: 2, ttlMs: 10_000 } });
    for (const userId of ['u1', 'u2', 'u3']) await repo.filters(userId);
    await writeBehind('u1', capsOn);
    await writeBehind('u3', capsOn);
    expect(await repo.filters('u3')).toEqual(defaultModerationFilters); // still held
    expect(await repo.filters('u1')).toEqual(capsOn); // forgotten: read again
  });

  test('when a read that started before a save ends after it, then what the read found is not kept', async () => {
    const clock = createFakeClock();
    let releaseRead!: () => void;
    const readHeld = new Promise<void>((resolve) => (releaseRead = resolve));
    // the store's findOne answers with what it found before the save, but only once the save is done
    const slowStore: Store = {
      ...test_.store,
      collection: <T extends Document>(name: string) => {
        const collection = test_.store.collection<T>(name);
        return {
          ...collection,
          findOne: async (filter: Filter) => {
            const found = await collection.findOne(filter);
            await readHeld;
            return found;
          },
        };
      },
    };
    const repo = createModerationRepository(slowStore, { clock });
    const reading = repo.filters('u1');
    await repo.saveFilters('u1', capsOn);
    releaseRead();
    expect(await reading).toEqual(defaultModerationFilters);
    expect(await repo.filters('u1')).toEqual(capsOn);
  });
});
