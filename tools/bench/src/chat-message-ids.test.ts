import { randomUUID } from 'node:crypto';
import { ChatMessageIndex } from './chat-message-ids';

describe('ChatMessageIndex', () => {
  test('when many UUIDs are remembered, then each is found at its message, in either case', () => {
    const ids = Array.from({ length: 5000 }, () => randomUUID());
    const index = new ChatMessageIndex(ids.length);
    ids.forEach((id, i) => index.set(i, id));

    expect(ids.every((id, i) => index.indexOf(id) === i)).toBe(true);
    expect(index.indexOf((ids[17] as string).toUpperCase())).toBe(17);
  });

  test('when an id is not one of the phase, or not a UUID, then it is not found', () => {
    const index = new ChatMessageIndex(2);
    index.set(0, '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c');

    expect(index.indexOf('5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4d')).toBe(-1);
    expect(index.indexOf('5b0e3a9c6f1d-4e2a-b7c8-9d0e1f2a3b4cc')).toBe(-1);
    expect(index.indexOf('5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4g')).toBe(-1);
    expect(index.indexOf('')).toBe(-1);
  });

  test('when an id is given twice, is not a UUID, or its message lies outside the phase, then it is refused', () => {
    const index = new ChatMessageIndex(2);
    index.set(0, '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c');

    expect(() => index.set(1, '5b0e3a9c-6f1d-4e2a-b7c8-9d0e1f2a3b4c')).toThrow('is known already');
    expect(() => index.set(1, 'chat-1')).toThrow('not a UUID: chat-1');
    expect(() => index.set(2, randomUUID())).toThrow('message 2 is outside 0…1');
  });
});
