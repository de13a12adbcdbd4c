import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '../components/ui/spinner';
import { paths } from '../config/paths';
import { AppShell } from './routes/app-shell';
import { LandingPage } from './routes/landing';
import { PublicRoute } from './routes/public';
import { RequireAuth } from './routes/require-auth';
import { RouteError } from './routes/route-error';

// The spec's route table (§2). Everything behind sign-in, and the pages a first visit to / does
// not need, are lazy chunks, so / loads only the landing page and the login modal.
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    errorElement: <RouteError />,
    HydrateFallback: PageSpinner,
    children: [
      {
        element: <PublicRoute />,
        children: [
          { index: true, element: <LandingPage /> },
          {
            path: paths.commands.path,
            lazy: async () => ({ Component: (await import('./routes/public-commands')).PublicCommandsPage }),
          },
        ],
      },
      {
        path: paths.kickError.path,
        lazy: async () => ({ Component: (await import('./routes/kick-error')).KickErrorPage }),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            path: paths.dashboard.path,
            lazy: async () => ({ Component: (await import('./routes/dashboard/dashboard')).DashboardPage }),
          },
          {
            path: paths.analytics.path,
            lazy: async () => ({ Component: (await import('./routes/analytics')).AnalyticsPage }),
          },
          {
            path: paths.moderation.path,
            lazy: async () => ({ Component: (await import('./routes/moderation')).ModerationPage }),
          },
          {
            path: paths.team.path,
            lazy: async () => ({ Component: (await import('./routes/team')).TeamPage }),
          },
          {
            path: paths.chatPopout.path,
            lazy: async () => ({ Component: (await import('./routes/chat-popout')).ChatPopoutPage }),
          },
          {
            path: paths.admin.root.path,
            children: [
              { index: true, element: <Navigate to={paths.admin.dashboard.href()} replace /> },
              {
                lazy: async () => ({ Component: (await import('./routes/admin/admin-layout')).AdminLayout }),
                children: [
                  {
                    path: paths.admin.dashboard.path,
                    lazy: async () => ({ Component: (await import('./routes/admin/dashboard')).AdminDashboardPage }),
                  },
                  {
                    path: paths.admin.users.path,
                    lazy: async () => ({ Component: (await import('./routes/admin/users')).AdminUsersPage }),
                  },
                  {
                    path: paths.admin.webhooks.path,
                    lazy: async () => ({ Component: (await import('./routes/admin/webhooks')).AdminWebhooksPage }),
                  },
                  {
                    path: paths.admin.analytics.path,
                    lazy: async () => ({ Component: (await import('./routes/admin/analytics')).AdminAnalyticsPage }),
                  },
                  {
                    path: paths.admin.audit.path,
                    lazy: async () => ({ Component: (await import('./routes/admin/audit')).AdminAuditPage }),
                  },
                  {
                    path: paths.admin.system.path,
                    lazy: async () => ({ Component: (await import('./routes/admin/coming-soon')).ComingSoonPage }),
                  },
                  {
                    path: paths.admin.settings.path,
                    lazy: async () => ({ Component: (await import('./routes/admin/coming-soon')).ComingSoonPage }),
                  },
                  // an unknown admin page: the dashboard
                  { path: '*', element: <Navigate to={paths.admin.dashboard.href()} replace /> },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to={paths.home.href()} replace /> },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
