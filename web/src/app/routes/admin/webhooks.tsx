import { WebhookSubscriptions } from '../../../features/admin/components/webhook-subscriptions';
import { DeliveryHealthOverview } from '../../../features/delivery-health/components/delivery-health-overview';

/** /admin/webhooks: the subscriptions of one user, and every channel's delivery health. */
export function AdminWebhooksPage() {
  return (
    <>
      <WebhookSubscriptions />
      <DeliveryHealthOverview />
    </>
  );
}
