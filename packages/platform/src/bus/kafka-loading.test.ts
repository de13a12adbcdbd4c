import type * as BusModule from './index';

describe('loading the Kafka adapter', () => {
  it('when the bus module is imported, then kafkajs is not loaded until a Kafka bus is made', async () => {
    let isKafkajsLoaded = false;
    jest.doMock('kafkajs', () => {
      isKafkajsLoaded = true;
      return jest.requireActual<object>('kafkajs');
    });
    let bus: typeof BusModule | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh module registry, to see what loading it loads
      bus = require('./index') as typeof BusModule;
    });
    if (!bus) throw new Error('the bus module did not load');
    bus.createInProcessBus({ topics: {} });
    expect(isKafkajsLoaded).toBe(false);

    await expect(bus.createKafkaBus({ topics: {}, brokers: [], clientId: 'kafka-loading-test' })).rejects.toThrow(
      'Failed to connect: brokers array is empty',
    );
    expect(isKafkajsLoaded).toBe(true);
  });
});
