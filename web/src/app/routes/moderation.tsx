import { DashboardSubpage } from './dashboard/dashboard-subpage';
import { ModerationFiltersSection } from '../../features/moderation/components/moderation-filters';
import { ModerationLogSection } from '../../features/moderation/components/moderation-log';
import '../../features/moderation/components/moderation.css';

/** /dashboard/moderation: the chat filters and the moderation log (a lazy chunk of its own). */
export function ModerationPage() {
  return (
    <DashboardSubpage title="Moderation">
      <ModerationFiltersSection />
      <ModerationLogSection />
    </DashboardSubpage>
  );
}
