import type { AuditEntry } from './admin-api';

// The admin dashboard's recent activity and the audit log's labels, from real audit entries.

/** The spec's Activity item (§3). */
export interface ActivityItem {
  id: string;
  type: 'user' | 'system' | 'security' | 'bot';
  title: string;
  description: string;
  timestamp: string;
  user: { name: string };
  status: 'success' | 'warning' | 'error' | 'info';
}

interface ActionInfo {
  label: string;
  type: ActivityItem['type'];
  status: ActivityItem['status'];
  /** "<actor> … <target>" */
  verb: string;
}

/** Every action the services record (auth, bot-runner, kick-link), for labels and the audit filter. */
export const auditActions: Readonly<Record<string, ActionInfo>> = {
  'user.activated': { label: 'User activated', type: 'user', status: 'success', verb: 'activated' },
  'user.deactivated': { label: 'User deactivated', type: 'user', status: 'warning', verb: 'deactivated' },
  'admin.created': { label: 'Super admin created', type: 'security', status: 'info', verb: 'created super admin' },
  'admin.promoted': {
    label: 'Promoted to super admin',
    type: 'security',
    status: 'info',
    verb: 'made super admin:',
  },
  'bot.enabled': { label: 'Bot enabled', type: 'bot', status: 'success', verb: 'enabled the bot of' },
  'bot.disabled': { label: 'Bot disabled', type: 'bot', status: 'warning', verb: 'disabled the bot of' },
  'webhook.subscribed': {
    label: 'Webhook subscribed',
    type: 'system',
    status: 'success',
    verb: 'subscribed a webhook for',
  },
  'webhook.subscribed-batch': {
    label: 'Selected webhooks subscribed',
    type: 'system',
    status: 'success',
    verb: 'subscribed selected webhooks for',
  },
  'webhook.subscribed-all': {
    label: 'All webhooks subscribed',
    type: 'system',
    status: 'success',
    verb: 'subscribed every webhook for',
  },
  'webhook.unsubscribed': {
    label: 'Webhook unsubscribed',
    type: 'system',
    status: 'warning',
    verb: 'removed a webhook of',
  },
  'webhook.unsubscribed-all': {
    label: 'All webhooks unsubscribed',
    type: 'system',
    status: 'warning',
    verb: 'removed every webhook of',
  },
};

/** A readable name for an action; an unknown one shows as recorded. */
export const actionLabel = (action: string): string => auditActions[action]?.label ?? action;

/** The details worth a line, e.g. "events: chat.message.sent, channel.followed". */
export function detailsText(details: Readonly<Record<string, string>>): string {
  const shown = ['events', 'kickUsername'] as const;
  return shown
    .filter((key) => details[key])
    .map((key) => `${key === 'events' ? 'events' : 'Kick'}: ${details[key]?.split(',').join(', ')}`)
    .join(' · ');
}

/** An audit entry as a recent-activity item. */
export function activityOf(entry: AuditEntry): ActivityItem {
  const info = auditActions[entry.action];
  const who = entry.actor.username || 'system';
  const whom = entry.target.username || entry.target.id;
  const details = detailsText(entry.details);
  const sentence = info ? `${who} ${info.verb} ${whom}` : `${who} → ${whom}`;
  return {
    id: entry.id,
    type: info?.type ?? 'system',
    title: info?.label ?? entry.action,
    description: details ? `${sentence} (${details})` : sentence,
    timestamp: entry.createdAt,
    user: { name: who },
    status: info?.status ?? 'info',
  };
}
