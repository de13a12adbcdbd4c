import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import type { ChatReceived } from '@kickstand/proto';
import { deadLetterTopic, instanceGroup, isInstanceGroup, kafkaGroupId } from './bus';
import { kickstandTopics } from './topics';
import type { KickstandTopicName, TopicMessage } from './topics';

// The topics of the design (shared/ARCHITECTURE.md, docs/topics.md).
const designTopics = [
  'chat.received',
  'chat.send',
  'chat.sent',
  'command.executed',
  'command.changed',
  'bot.status',
  'bot.control',
  'user.changed',
  'kick.account',
  'kick.event',
  'game.event',
  'audit.recorded',
  'chat.subscription',
  'moderation.action',
  'moderation.result',
  'team.changed',
];

describe('kickstandTopics', () => {
  test('when the registry is listed, then it holds exactly the topics of the design', () => {
    expect(Object.keys(kickstandTopics).sort()).toEqual([...designTopics].sort());
  });

  test('when two topics are compared, then each maps to a distinct message type', () => {
    const typeNames = Object.values(kickstandTopics).map((schema) => schema.typeName);
    expect(new Set(typeNames).size).toBe(typeNames.length);
  });

  test.each(Object.entries(kickstandTopics))(
    'when %s is looked up, then its message is a kickstand.events.v1 event with event_id and occurred_at',
    (_topic, schema) => {
      expect(schema.typeName).toMatch(/^kickstand\.events\.v1\.[A-Z]\w+$/);
      expect(schema.field.eventId?.number).toBe(1);
      expect(schema.field.occurredAt?.number).toBe(2);
    },
  );

  test("when a message is typed by its topic, then TopicMessage<'chat.received'> is ChatReceived", () => {
    const topic: KickstandTopicName = 'chat.received';
    const message: TopicMessage<typeof topic> = create(kickstandTopics[topic], { messageId: 'm-1' });
    const decoded: ChatReceived = fromBinary(kickstandTopics[topic], toBinary(kickstandTopics[topic], message));
    expect(decoded.messageId).toBe('m-1');
  });
});

describe('Kafka consumer groups', () => {
  test('when a service group reads a topic, then its Kafka group is named after both (KEDA reads bot-runner.chat.received)', () => {
    expect(kafkaGroupId('bot-runner', 'chat.received')).toBe('bot-runner.chat.received');
    expect(kafkaGroupId(instanceGroup('bot-runner', 'pod-1'), 'bot.status')).toBe(
      'bot-runner.instance.pod-1.bot.status',
    );
  });
});

describe('groups of one instance', () => {
  test('when a service names the group of one of its instances, then it is marked as such', () => {
    expect(instanceGroup('realtime', 'realtime-7d9f-abc')).toBe('realtime.instance.realtime-7d9f-abc');
    expect(isInstanceGroup(instanceGroup('bot-runner', 'pod-1'))).toBe(true);
    expect(isInstanceGroup('bot-runner')).toBe(false);
    expect(isInstanceGroup('bot-runner.dlq.reader.1')).toBe(false);
  });

  test('when a group of one instance dead-letters, then it goes to the service’s one topic, not a topic per pod', () => {
    expect(deadLetterTopic(instanceGroup('gateway', 'gateway-5b6c-x1'))).toBe('gateway.instances.dlq');
    expect(deadLetterTopic(instanceGroup('gateway', 'gateway-5b6c-x2'))).toBe('gateway.instances.dlq');
    expect(deadLetterTopic('bot-runner')).toBe('bot-runner.dlq');
  });
});
