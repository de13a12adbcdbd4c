import { BotAccountSection } from '../../../features/admin/components/bot-account-section';
import { WebhookSubscriptions } from '../../../features/admin/components/webhook-subscriptions';
import { DeliveryHealthOverview } from '../../../features/delivery-health/components/delivery-health-overview';

/** /admin/webhooks: the platform's bot account, the subscriptions of one user, and every channel's delivery health. */
export function AdminWebhooksPage() {
  return (
    <>
      <BotAccountSection />
      <WebhookSubscriptions />
      <DeliveryHealthOverview />
    </>
  );
}
