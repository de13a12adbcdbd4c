// Every client-side route in one place (spec §2); components link with href(), the router uses path.

export type KickErrorType = 'duplicate' | 'general';

export const paths = {
  home: { path: '/', href: () => '/' },
  commands: { path: '/commands', href: () => '/commands' },
  dashboard: { path: '/dashboard', href: () => '/dashboard' },
  analytics: { path: '/dashboard/analytics', href: () => '/dashboard/analytics' },
  moderation: { path: '/dashboard/moderation', href: () => '/dashboard/moderation' },
  team: { path: '/dashboard/team', href: () => '/dashboard/team' },
  chatPopout: { path: '/chat-popout', href: () => '/chat-popout' },
  kickError: {
    path: '/kick-error',
    href: (type: KickErrorType = 'general', username?: string) => {
      const query = new URLSearchParams({ type });
      if (username) query.set('username', username);
      return `/kick-error?${query.toString()}`;
    },
  },
  admin: {
    root: { path: '/admin', href: () => '/admin' },
    dashboard: { path: '/admin/dashboard', href: () => '/admin/dashboard' },
    users: { path: '/admin/users', href: () => '/admin/users' },
    webhooks: { path: '/admin/webhooks', href: () => '/admin/webhooks' },
    analytics: { path: '/admin/analytics', href: () => '/admin/analytics' },
    audit: { path: '/admin/audit', href: () => '/admin/audit' },
    system: { path: '/admin/system', href: () => '/admin/system' },
    settings: { path: '/admin/settings', href: () => '/admin/settings' },
  },
} as const;
