import type { LinkDoc, NewLink } from '../repository';

/** A link of a Kick channel as the tests store one: its tokens are sealed (never sent to Kick), linked `at`. */
export function aNewLink(fields: { kickUserId: string; kickUsername?: string; at: Date; scopes?: string[] }): NewLink {
  return {
    kickUserId: fields.kickUserId,
    kickUsername: fields.kickUsername ?? 'some_streamer',
    kickEmail: '',
    profilePicture: '',
    linkedAt: fields.at,
    accessToken: 'sealed',
    refreshToken: 'sealed',
    accessExpiresAt: fields.at,
    scopes: fields.scopes ?? [],
    tokensUpdatedAt: fields.at,
  };
}

/** The same link as user `ownerUserId`'s stored document: active, version 1. */
export function aStoredLink(ownerUserId: string, fields: Parameters<typeof aNewLink>[0]): LinkDoc {
  return { _id: ownerUserId, status: 'active', version: 1, ...aNewLink(fields) };
}
