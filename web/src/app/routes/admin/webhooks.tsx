import { BotAccountSection } from '../../../features/admin/components/bot-account-section';
import { WebhookSubscriptions } from '../../../features/admin/components/webhook-subscriptions';

/** /admin/webhooks: the platform's bot account, then the webhook subscriptions. */
export function AdminWebhooksPage() {
  return (
    <>
      <BotAccountSection />
      <WebhookSubscriptions />
    </>
  );
}
