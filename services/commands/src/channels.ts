import type { KickstandBus, Subscription } from '@kickstand/platform/bus';
import type { Document, Store } from '@kickstand/platform/store';
import { KickAccountChangeKind, timestampDate, type CommandExecuted, type KickAccount } from '@kickstand/proto';

/**
 * The Kick channel each streamer linked, from kick.account, so that the public commands page finds
 * a channel's commands by its name. `_id` is the Kickstand user id; `channelKey` the name as looked
 * up ('' once unlinked).
 *
 * Channels linked before this service read kick.account have no document (the bus does not replay
 * old events): the backfill fills one, and only a missing one, from events that name the channel:
 * NEEDS_RELINK (it carries the link's username, as LINKED does) and command.executed typed by the
 * broadcaster in their own chat (the invoker is then the channel's owner on Kick).
 */
export interface ChannelDoc extends Document {
  channelKey: string;
  /** As Kick spells it. */
  kickUsername: string;
  /** The occurred_at of the event that wrote it: an older event (a late delivery) changes nothing. */
  changedAt: Date;
}

/**
 * Kick's channel slug is its username in lower case, with `-` where the name may have `_`: both
 * are looked up the same way, in any letter case.
 */
export const channelKeyOf = (name: string): string => name.trim().toLowerCase().replace(/-/g, '_');

export interface Channels {
  /** The owner of a linked channel by its name or slug; null when no streamer linked it. */
  find(channel: string): Promise<{ userId: string; kickUsername: string } | null>;
  onKickAccount(message: KickAccount): Promise<void>;
  /** The backfill: the channel's name from a command its broadcaster ran, when none is held yet. */
  onCommandExecuted(message: CommandExecuted): Promise<void>;
}

export function createChannels(store: Store): Channels {
  const channels = store.collection<ChannelDoc>('channels');
  return {
    find: async (channel) => {
      const key = channelKeyOf(channel);
      if (key === '') return null; // an unlinked channel's mark
      const found = await channels.findOne({ channelKey: key });
      return found ? { userId: found._id, kickUsername: found.kickUsername } : null;
    },
    // kick.account is keyed by the user id: one user's events come in order, one at a time
    onKickAccount: async (message) => {
      if (message.userId === '') return;
      const at = message.occurredAt ? timestampDate(message.occurredAt) : new Date(0);
      const held = await channels.findOne({ _id: message.userId });
      if (held && held.changedAt > at) return;
      const isLinked =
        message.kind === KickAccountChangeKind.LINKED || message.kind === KickAccountChangeKind.NEEDS_RELINK;
      if (isLinked && message.kickUsername !== '') {
        const doc = {
          channelKey: channelKeyOf(message.kickUsername),
          kickUsername: message.kickUsername,
          changedAt: at,
        };
        await channels.updateOne({ _id: message.userId }, { $set: doc }, { upsert: true });
      } else if (message.kind === KickAccountChangeKind.UNLINKED) {
        // kept as a mark with its time, so that an older LINKED delivered late cannot bring it back
        const doc = { channelKey: '', kickUsername: '', changedAt: at };
        await channels.updateOne({ _id: message.userId }, { $set: doc }, { upsert: true });
      }
    },
    onCommandExecuted: async (message) => {
      const isBroadcaster = message.invokedByUserId !== '' && message.invokedByUserId === message.broadcasterUserId;
      if (!isBroadcaster || message.ownerUserId === '' || message.invokedByUsername === '') return;
      const at = message.executedAt ?? message.occurredAt;
      const doc = {
        channelKey: channelKeyOf(message.invokedByUsername),
        kickUsername: message.invokedByUsername,
        changedAt: at ? timestampDate(at) : new Date(0),
      };
      // only where nothing is held: a kick.account's document (even an unlinked mark) stays as it is
      await channels.updateOne({ _id: message.ownerUserId }, { $setOnInsert: doc }, { upsert: true });
    },
  };
}

export async function subscribeChannels(bus: KickstandBus, group: string, channels: Channels): Promise<Subscription[]> {
  return [
    await bus.subscribe('kick.account', group, channels.onKickAccount),
    await bus.subscribe('command.executed', group, channels.onCommandExecuted),
  ];
}
