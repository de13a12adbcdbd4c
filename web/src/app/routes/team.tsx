import { DashboardSubpage } from './dashboard/dashboard-subpage';
import { ChannelSwitcher } from '../../features/team/components/channel-switcher';
import { TeamActivity } from '../../features/team/components/team-activity';
import { TeamEditors } from '../../features/team/components/team-editors';
import '../../features/team/components/team.css';

/** /dashboard/team: team access (a lazy chunk of its own): my editors, and the channels I edit. */
export function TeamPage() {
  return (
    <DashboardSubpage title="Team">
      <TeamEditors />
      <ChannelSwitcher />
      <TeamActivity />
    </DashboardSubpage>
  );
}
