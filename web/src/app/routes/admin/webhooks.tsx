import { DeadLetters } from '../../../features/admin/components/dead-letters';
import { WebhookSubscriptions } from '../../../features/admin/components/webhook-subscriptions';

/** /admin/webhooks: the subscriptions, then the deliveries that could not be used. */
export function AdminWebhooksPage() {
  return (
    <>
      <WebhookSubscriptions />
      <DeadLetters />
    </>
  );
}
