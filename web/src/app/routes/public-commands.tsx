import { commandPrefix } from '../../config/constants';
import { ChannelCommands } from '../../features/catalog/components/channel-commands';
import { CommandCatalogList } from '../../features/catalog/components/command-catalog';
import { usePageTitle } from '../../lib/page-title';

/** /commands: the built-in chat commands, public (spec §2), and a channel's custom commands (`?channel=`). */
export function PublicCommandsPage() {
  usePageTitle('Bot Commands');
  return (
    <div className="container public-commands">
      <header className="page-header">
        <h1>Bot Commands</h1>
        <p className="muted">
          Everything viewers can type in chat. Every command starts with <code>{commandPrefix}</code>.
        </p>
        <p>
          <span className="badge badge-accent">Custom Commands Available After Login</span>
        </p>
      </header>
      <ChannelCommands />
      <CommandCatalogList />
    </div>
  );
}
