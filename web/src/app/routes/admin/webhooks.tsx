import { WebhookSubscriptions } from '../../../features/admin/components/webhook-subscriptions';

/** /admin/webhooks. */
export function AdminWebhooksPage() {
  return <WebhookSubscriptions />;
}
