import { BotAccountSection } from '../../../features/admin/components/bot-account-section';
import { DeadLetters } from '../../../features/admin/components/dead-letters';
import { WebhookSubscriptions } from '../../../features/admin/components/webhook-subscriptions';
import { DeliveryHealthOverview } from '../../../features/delivery-health/components/delivery-health-overview';

/** /admin/webhooks: the platform's bot account, the subscriptions of one user, every channel's delivery health, and the deliveries that could not be used. */
export function AdminWebhooksPage() {
  return (
    <>
      <BotAccountSection />
      <WebhookSubscriptions />
      <DeliveryHealthOverview />
      <DeadLetters />
    </>
  );
}
