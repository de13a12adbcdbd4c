import { driftPayload, unknownEventPayload } from './drift';

const user = (id: number, name: string) => ({
  is_anonymous: false,
  user_id: id,
  username: name,
  is_verified: false,
  profile_picture: '',
  channel_slug: name,
  identity: null,
});

const chat = {
  message_id: 'm-1',
  broadcaster: user(4377088, 'some_streamer'),
  sender: {
    ...user(555001, 'viewer'),
    identity: { username_color: '#1E90FF', badges: [{ text: 'Moderator', type: 'moderator' }] },
  },
  content: 'hi [emote:37226:KEKW]',
  emotes: [{ emote_id: '37226', positions: [{ s: 3, e: 20 }] }],
  created_at: '2026-03-02T18:05:41Z',
};

const metadata = {
  broadcaster: user(4377088, 'some_streamer'),
  metadata: {
    title: 't',
    language: 'en',
    has_mature_content: false,
    category: { id: 15, name: 'Just Chatting', thumbnail: '' },
  },
};

describe('payload drift', () => {
  test('when no drift is drawn, then the payload is the same', () => {
    expect(driftPayload(chat, [])).toEqual(chat);
  });

  test('when objects drift to null, then emotes, replies_to, the badges and metadata.category are null', () => {
    expect(driftPayload(chat, ['nullObjects'])).toEqual({
      ...chat,
      emotes: null,
      replies_to: null,
      sender: { ...chat.sender, identity: { username_color: '#1E90FF', badges: null } },
    });
    expect(driftPayload(metadata, ['nullObjects'])).toEqual({
      ...metadata,
      metadata: { ...metadata.metadata, category: null },
    });
  });

  test("when the identity drifts to null, then the sender's identity is null", () => {
    expect(driftPayload(chat, ['nullIdentity'])).toEqual({ ...chat, sender: { ...chat.sender, identity: null } });
  });

  test('when unknown fields drift in, then at the top, in every user object and as metadata.Category', () => {
    expect(driftPayload(metadata, ['unknownFields'])).toEqual({
      broadcaster: { ...metadata.broadcaster, sandbox_unknown_user_field: 'drift' },
      metadata: { ...metadata.metadata, Category: metadata.metadata.category },
      sandbox_unknown_field: { added_by: 'kick-sandbox', version: 2 },
    });
  });

  test('when optional fields go missing, then created_at, expires_at and ended_at are gone', () => {
    const status = { broadcaster: user(1, 'abc'), is_live: false, title: 't', started_at: 's', ended_at: 'e' };
    expect(driftPayload(status, ['missingOptional'])).toEqual({
      broadcaster: status.broadcaster,
      is_live: false,
      title: 't',
      started_at: 's',
    });
    const { created_at: _createdAt, ...withoutCreatedAt } = chat;
    expect(driftPayload(chat, ['missingOptional'])).toEqual(withoutCreatedAt);
  });

  test('when ids drift to strings, then every numeric user_id and id is a string, nothing else', () => {
    expect(driftPayload(metadata, ['idsAsStrings'])).toEqual({
      broadcaster: { ...metadata.broadcaster, user_id: '4377088' },
      metadata: { ...metadata.metadata, category: { ...metadata.metadata.category, id: '15' } },
    });
  });

  test('when the payload is not an object, then it stays as it is', () => {
    expect(driftPayload([1, 2], ['nullObjects', 'idsAsStrings'])).toEqual([1, 2]);
  });

  test('when an unknown event is made up, then it names the channel and its time', () => {
    expect(unknownEventPayload(chat, '2026-03-02T18:05:41Z')).toEqual({
      broadcaster: chat.broadcaster,
      sandbox_note: 'an event type Kick has not documented',
      created_at: '2026-03-02T18:05:41Z',
    });
  });
});
