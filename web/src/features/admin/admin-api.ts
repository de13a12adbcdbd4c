import type {
  AdminStats,
  AuditEntry,
  AuditPage,
  CommandUsage,
  DeadLetter,
  DeadLetterPage,
  Pagination,
  Role,
  ServiceHealth,
  SubscribedBot,
  Subscription,
  SubscriptionList,
  SystemHealth,
  UserPage,
  UserView,
} from '@kickstand/api-contract';
import { api, dataOf, type ApiError, type ApiSuccess } from '../../lib/api';

// The shapes are the HTTP contract's (auth, kick-link and the gateway answer them).
export type {
  AuditEntry,
  AuditPage,
  CommandUsage,
  DeadLetter,
  DeadLetterPage,
  Pagination,
  ServiceHealth,
  SubscribedBot,
  Subscription,
  SubscriptionList,
  SystemHealth,
  UserPage,
};

export type AdminRole = Role;

/** The spec's User (§3) as GET /api/admin/users lists it. */
export type AdminUser = UserView;

export interface GetUsersArgs {
  page: number;
  limit: number;
  /** Server-side search (username or e-mail); absent on the spec's first fetch. */
  search?: string;
  /** Only users with a linked Kick account (the webhook page's picker). */
  hasKick?: boolean;
}

/** GET /api/admin/stats: auth's figures. */
export type DashboardStats = AdminStats;

export interface GetAuditLogsArgs {
  page: number;
  limit: number;
  action?: string;
}

/** A mutation's answer: the envelope's message (the spec's success text). */
export interface ActionResult {
  message?: string;
}

const query = (params: Record<string, string | number | boolean | undefined>): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  return search.toString();
};

const messageOf = (body: { message?: string } | undefined): ActionResult => ({ message: body?.message });

/** Which subscriptions list a webhook call changes. */
const subscriptionsOf = (userId: string) => [{ type: 'Subscriptions' as const, id: userId }];

export const adminApi = api.injectEndpoints({
  endpoints: (build) => ({
    getUsers: build.query<UserPage, GetUsersArgs>({
      query: ({ page, limit, search, hasKick }) => `/admin/users?${query({ search, page, limit, hasKick })}`,
      transformResponse: (body: ApiSuccess<UserPage>) => dataOf(body),
      providesTags: ['AdminUsers'],
    }),
    changeRole: build.mutation<AdminUser, { id: string; role: AdminRole }>({
      query: ({ id, role }) => ({
        url: `/admin/users/${encodeURIComponent(id)}/role`,
        method: 'PATCH',
        body: { role },
      }),
      transformResponse: (body: ApiSuccess<AdminUser>) => dataOf(body),
      invalidatesTags: ['AdminUsers', 'AuditLog'],
    }),
    updateUserStatus: build.mutation<AdminUser, { id: string; isActive: boolean }>({
      query: ({ id, isActive }) => ({
        url: `/admin/users/${encodeURIComponent(id)}/status`,
        method: 'PATCH',
        body: { isActive },
      }),
      transformResponse: (body: ApiSuccess<AdminUser>) => dataOf(body),
      invalidatesTags: ['AdminUsers', 'AdminStats', 'AuditLog'],
    }),
    enableBot: build.mutation<ActionResult, string>({
      query: (id) => ({ url: `/admin/users/${encodeURIComponent(id)}/bot/enable`, method: 'POST' }),
      transformResponse: messageOf,
      // bot-runner answers now and auth's list learns it from bot.status a moment later, so the
      // list is not refetched here (it could still show the old state): see setBotEnabledInList
      invalidatesTags: ['AuditLog'],
    }),
    disableBot: build.mutation<ActionResult, string>({
      query: (id) => ({ url: `/admin/users/${encodeURIComponent(id)}/bot/disable`, method: 'POST' }),
      transformResponse: messageOf,
      invalidatesTags: ['AuditLog'],
    }),

    getSubscriptions: build.query<SubscriptionList, string>({
      query: (userId) => `/admin/users/${encodeURIComponent(userId)}/webhooks`,
      transformResponse: (body: ApiSuccess<{ subscriptions: Subscription[]; bot?: SubscribedBot }>) => {
        const { subscriptions, bot } = dataOf(body);
        return { subscriptions, bot: bot ?? null };
      },
      providesTags: (_result, _error, userId) => subscriptionsOf(userId),
    }),
    subscribe: build.mutation<ActionResult, { userId: string; event: string }>({
      query: ({ userId, event }) => ({
        url: `/admin/users/${encodeURIComponent(userId)}/webhooks`,
        method: 'POST',
        body: { event },
      }),
      transformResponse: messageOf,
      invalidatesTags: (_result, _error, { userId }) => [...subscriptionsOf(userId), 'AuditLog'],
    }),
    subscribeSelected: build.mutation<ActionResult, { userId: string; events: string[] }>({
      query: ({ userId, events }) => ({
        url: `/admin/users/${encodeURIComponent(userId)}/webhooks/subscribe-batch`,
        method: 'POST',
        body: { events },
      }),
      transformResponse: messageOf,
      invalidatesTags: (_result, _error, { userId }) => [...subscriptionsOf(userId), 'AuditLog'],
    }),
    subscribeAll: build.mutation<ActionResult, string>({
      query: (userId) => ({ url: `/admin/users/${encodeURIComponent(userId)}/webhooks/subscribe-all`, method: 'POST' }),
      transformResponse: messageOf,
      invalidatesTags: (_result, _error, userId) => [...subscriptionsOf(userId), 'AuditLog'],
    }),
    unsubscribeAll: build.mutation<ActionResult, string>({
      query: (userId) => ({
        url: `/admin/users/${encodeURIComponent(userId)}/webhooks/unsubscribe-all`,
        method: 'POST',
      }),
      transformResponse: messageOf,
      invalidatesTags: (_result, _error, userId) => [...subscriptionsOf(userId), 'AuditLog'],
    }),
    unsubscribe: build.mutation<ActionResult, { userId: string; subscriptionId: string }>({
      query: ({ userId, subscriptionId }) => ({
        url: `/admin/users/${encodeURIComponent(userId)}/webhooks/${encodeURIComponent(subscriptionId)}`,
        method: 'DELETE',
      }),
      transformResponse: messageOf,
      invalidatesTags: (_result, _error, { userId }) => [...subscriptionsOf(userId), 'AuditLog'],
    }),

    getDeadLetters: build.query<DeadLetterPage, { page: number; limit: number }>({
      query: ({ page, limit }) => `/admin/kick/dead-letters?${query({ page, limit })}`,
      transformResponse: (body: ApiSuccess<DeadLetterPage>) => dataOf(body),
      providesTags: ['DeadLetters'],
    }),
    replayDeadLetter: build.mutation<ActionResult, string>({
      query: (id) => ({ url: `/admin/kick/dead-letters/${encodeURIComponent(id)}/replay`, method: 'POST' }),
      transformResponse: messageOf,
      // a failed replay marks the letter (replayedAt) too
      invalidatesTags: ['DeadLetters'],
    }),
    discardDeadLetter: build.mutation<ActionResult, string>({
      query: (id) => ({ url: `/admin/kick/dead-letters/${encodeURIComponent(id)}`, method: 'DELETE' }),
      transformResponse: messageOf,
      invalidatesTags: ['DeadLetters'],
    }),

    getDashboardStats: build.query<DashboardStats, void>({
      query: () => '/admin/stats',
      transformResponse: (body: ApiSuccess<DashboardStats>) => dataOf(body),
      providesTags: ['AdminStats'],
    }),
    getSystemHealth: build.query<SystemHealth, void>({
      // the gateway answers 503 with the same data when a service is down: that is an answer too
      async queryFn(_arg, _api, _extra, baseQuery) {
        const result = await baseQuery('/health');
        if (!result.error) return { data: dataOf(result.data as ApiSuccess<SystemHealth>) };
        const error = result.error as ApiError;
        const body = 'data' in error ? (error.data as { data?: SystemHealth } | undefined) : undefined;
        if (error.status === 503 && body?.data) return { data: body.data };
        return { error };
      },
    }),
    getAuditLogs: build.query<AuditPage, GetAuditLogsArgs>({
      query: ({ page, limit, action }) => `/admin/audit?${query({ page, limit, action })}`,
      transformResponse: (body: ApiSuccess<AuditPage>) => dataOf(body),
      providesTags: ['AuditLog'],
    }),
    getCommandUsage: build.query<CommandUsage, { days: number }>({
      query: ({ days }) => `/admin/analytics?${query({ days })}`,
      transformResponse: (body: ApiSuccess<CommandUsage>) => dataOf(body),
      providesTags: ['CommandUsage'],
    }),
  }),
});

/** After a bot switch succeeded: the cached list `args` shows the user's new botEnabled. */
export const setBotEnabledInList = (args: GetUsersArgs, id: string, isEnabled: boolean) =>
  adminApi.util.updateQueryData('getUsers', args, (draft) => {
    const user = draft.users.find((candidate) => candidate.id === id);
    if (user) user.botEnabled = isEnabled;
  });

export const {
  useGetUsersQuery,
  useUpdateUserStatusMutation,
  useEnableBotMutation,
  useDisableBotMutation,
  useGetSubscriptionsQuery,
  useChangeRoleMutation,
  useSubscribeMutation,
  useSubscribeSelectedMutation,
  useSubscribeAllMutation,
  useUnsubscribeAllMutation,
  useUnsubscribeMutation,
  useGetDeadLettersQuery,
  useReplayDeadLetterMutation,
  useDiscardDeadLetterMutation,
  useGetDashboardStatsQuery,
  useGetSystemHealthQuery,
  useGetAuditLogsQuery,
  useGetCommandUsageQuery,
} = adminApi;
