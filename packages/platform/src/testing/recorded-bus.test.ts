import { recordPublished } from './recorded-bus';
import { testTopics } from '../bus/bus.contract';
import { createInProcessBus } from '../bus/in-process-bus';

describe('recordPublished', () => {
  test('when messages are published through the recorded bus, then they are recorded per topic, decoded, and still delivered', async () => {
    // Arrange
    const inner = createInProcessBus({ topics: testTopics });
    const recorded = recordPublished(inner, testTopics);
    const delivered: number[] = [];
    await recorded.bus.subscribe('test.count', 'g', async (message) => {
      delivered.push(message.value);
    });
    // Act
    await recorded.bus.publish('test.count', 'k1', { value: 1 });
    await recorded.bus.publish('test.count', 'k2', {});
    // Assert
    expect(recorded.published('test.count').map((message) => message.value)).toEqual([1, 0]);
    expect(recorded.publishedWithKeys('test.count').map(({ key }) => key)).toEqual(['k1', 'k2']);
    expect(recorded.published('test.greeting')).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(delivered).toEqual([1, 0]);
    recorded.clear();
    expect(recorded.published('test.count')).toEqual([]);
    await recorded.bus.stop();
  });

  test('when a publish fails, then nothing is recorded', async () => {
    const inner = createInProcessBus({ topics: testTopics });
    const recorded = recordPublished(inner, testTopics);
    await inner.stop();
    await expect(recorded.bus.publish('test.count', 'k', { value: 1 })).rejects.toThrow('The bus is stopped');
    expect(recorded.published('test.count')).toEqual([]);
  });
});
