import type { Clock } from '@kickstand/platform/clock';
import type { App } from '../app-settings';
import type { Bans } from '../bans';
import type { Channels } from '../channels';
import type { Chat } from '../chat';
import type { EventSubscriptions } from '../event-subscriptions';
import type { ImageUrls } from '../images';
import type { KickUsers } from '../kick-users';
import type { Notifier } from '../notifier';
import type { Tokens } from '../oauth/tokens';
import type { RealKick } from '../real-kick';
import type { Repository } from '../repository';
import type { ViewerEvents } from '../viewer-events';
import type { Faults } from '../webhooks/faults';
import type { Signer } from '../webhooks/signer';

export interface ControlDeps {
  repo: Repository;
  users: KickUsers;
  channels: Channels;
  chat: Chat;
  bans: Bans;
  viewerEvents: ViewerEvents;
  subscriptions: EventSubscriptions;
  tokens: Tokens;
  faults: Faults;
  realKick: RealKick;
  app: App;
  signer: Signer;
  images: ImageUrls;
  clock: Clock;
  notifier: Notifier;
}
