import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { PageSpinner } from '../../../components/ui/spinner';
import { Tabs } from '../../../components/ui/tabs';
import { botStatusLoadDelayMs, superAdminRedirectDelayMs } from '../../../config/constants';
import { ActingChannelBanner } from '../../../features/team/components/acting-channel-banner';
import { paths } from '../../../config/paths';
import { useGetBotStatusQuery } from '../../../features/bot/bot-api';
import { BotCard } from '../../../features/bot/components/bot-card';
import { BotModeratorHint, ReplySenderLine } from '../../../features/kick-link/components/reply-sender-line';
import { useBotErrors } from '../../../features/bot/use-bot-errors';
import { LiveChatTab } from '../../../features/chat/components/live-chat-tab';
import { useChatFeed } from '../../../features/chat/use-chat-feed';
import { CommandsTab } from '../../../features/commands/components/commands-tab';
import { DotaSettings } from '../../../features/dota/components/dota-settings';
import { KickAccountTab } from '../../../features/kick-link/components/kick-account-tab';
import { SetupBanner } from '../../../features/kick-link/components/setup-banner';
import { WelcomeModal } from '../../../features/kick-link/components/welcome-modal';
import { useGetChatSenderQuery } from '../../../features/kick-link/kick-api';
import { useKickLinkResult } from '../../../features/kick-link/use-kick-link-result';
import { useStartKickLink } from '../../../features/kick-link/use-start-kick-link';
import { useWelcomeModal } from '../../../features/kick-link/use-welcome-modal';
import { useGetProfileQuery, type User } from '../../../features/session/auth-api';
import { dashboardSplashFinished, selectIsFromLogin } from '../../../features/session/session-slice';
import { SetupTab } from '../../../features/setup/components/setup-tab';
import { errorStatus } from '../../../lib/api-error';
import { loggedOut } from '../../../lib/app-events';
import { browser } from '../../../lib/browser';
import { usePageTitle } from '../../../lib/page-title';
import { useSocketConnection } from '../../../lib/socket';
import { useAppDispatch, useAppSelector } from '../../hooks';
import { DashboardHeader } from './dashboard-header';
import { LoadingSplash } from './loading-splash';
import { useSplash } from './use-splash';
import './dashboard.css';

// timers and counters: their own chunk, fetched when the Commands tab opens
const TimersAndCounters = lazy(() => import('../../../features/timers/components/timers-and-counters'));
// event messages and the live card: their own chunk too
const EventMessagesSection = lazy(() => import('../../../features/event-messages/components/event-messages-section'));

export type DashboardTab = 'kick' | 'config' | 'commands' | 'chat';

const streamerTabs = [
  { id: 'kick', label: 'Kick Account' },
  { id: 'config', label: 'Setup' },
  { id: 'commands', label: 'Commands' },
  { id: 'chat', label: 'Live Chat' },
] as const;

const tabStorageKey = 'dashboardTab';
const isDashboardTab = (value: string | null): value is DashboardTab => streamerTabs.some((tab) => tab.id === value);

/** The open tab survives a reload in this browser tab (the post-link reload returns to Kick Account). */
function useDashboardTab(): [DashboardTab, (tab: DashboardTab) => void] {
  const [tab, setTab] = useState<DashboardTab>(() => {
    const stored = window.sessionStorage.getItem(tabStorageKey);
    return isDashboardTab(stored) ? stored : 'config';
  });
  const select = (next: DashboardTab) => {
    window.sessionStorage.setItem(tabStorageKey, next);
    setTab(next);
  };
  return [tab, select];
}

/** True once `ms` have passed since mount. */
function useDelay(ms: number): boolean {
  const [isOver, setOver] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setOver(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return isOver;
}

function StreamerDashboard({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const isFromLogin = useAppSelector(selectIsFromLogin);
  const hasKickAccount = Boolean(user.kickAccount?.kickUsername);
  const isSocketConnected = useSocketConnection();
  const isBotStatusDue = useDelay(botStatusLoadDelayMs);
  const bot = useGetBotStatusQuery(undefined, { skip: !isBotStatusDue });
  useBotErrors();
  useChatFeed();
  const [tab, setTab] = useDashboardTab();
  usePageTitle(streamerTabs.find((item) => item.id === tab)?.label);
  const { startLink } = useStartKickLink();
  // the same query as the reply-sender line below the card: one request for both
  const sender = useGetChatSenderQuery(undefined, { skip: !hasKickAccount });
  const welcome = useWelcomeModal({ shouldOffer: !hasKickAccount, checkKey: `${user.id}:${hasKickAccount}` });
  useKickLinkResult({ isKickTabActive: tab === 'kick', onLinked: welcome.hide });
  const splash = useSplash({
    isProgress: isFromLogin && hasKickAccount,
    isAuthenticated: true,
    isSocketConnected,
    isBotInitialized: bot.isSuccess || bot.isError,
  });

  useEffect(() => {
    if (splash.isDone && isFromLogin) dispatch(dashboardSplashFinished());
  }, [splash.isDone, isFromLogin, dispatch]);

  useEffect(() => {
    // spec §8: a failed status load is only a warning; a 401 is already the session-expired toast
    if (bot.isError && errorStatus(bot.error) !== 401) console.warn('Could not load the bot status', bot.error);
  }, [bot.isError, bot.error]);

  if (!splash.isDone) return <LoadingSplash isProgress={splash.isProgress} activeStep={splash.activeStep} />;

  return (
    <div className="page dashboard">
      <DashboardHeader
        username={user.username}
        onExit={() => dispatch(loggedOut())}
        links={
          <>
            <Link className="button button-ghost" to={paths.analytics.href()}>
              Analytics
            </Link>
            <Link className="button button-ghost" to={paths.moderation.href()}>
              Moderation
            </Link>
            <Link className="button button-ghost" to={paths.team.href()}>
              Team
            </Link>
          </>
        }
      />
      <main className="container dashboard-main" id="main">
        <ActingChannelBanner />
        <BotCard
          status={bot.data}
          isLoading={bot.isLoading || !isBotStatusDue}
          hasKickAccount={hasKickAccount}
          onLink={() => void startLink()}
          replyError={sender.data?.lastError}
        />
        <ReplySenderLine hasKickAccount={hasKickAccount} />
        <Tabs label="Dashboard" items={streamerTabs} activeId={tab} onSelect={setTab} className="dashboard-tabs">
          {tab === 'kick' && <KickAccountTab />}
          {tab === 'config' && (
            <SetupTab
              banner={hasKickAccount ? <BotModeratorHint hasKickAccount /> : <SetupBanner />}
              settingsExtra={<DotaSettings />}
            />
          )}
          {tab === 'commands' && <CommandsTab />}
          {tab === 'commands' && (
            <Suspense fallback={null}>
              <TimersAndCounters />
            </Suspense>
          )}
          {tab === 'commands' && (
            <Suspense fallback={null}>
              <EventMessagesSection />
            </Suspense>
          )}
          {tab === 'chat' && <LiveChatTab />}
        </Tabs>
      </main>
      {welcome.isOpen && <WelcomeModal onClose={welcome.close} />}
    </div>
  );
}

/** A super admin sees only Admin Dashboard and is sent (full page load) to /admin/dashboard after 100 ms. */
function SuperAdminDashboard({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  usePageTitle('Dashboard');
  useEffect(() => {
    const timer = setTimeout(() => browser.goTo(paths.admin.dashboard.href()), superAdminRedirectDelayMs);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div className="page dashboard">
      <DashboardHeader username={user.username} onExit={() => dispatch(loggedOut())} />
      <main className="container dashboard-main" id="main">
        <Tabs
          label="Dashboard"
          items={[{ id: 'admin', label: 'Admin Dashboard' }]}
          activeId="admin"
          onSelect={() => undefined}
        >
          <p className="muted">Opening the admin panel…</p>
        </Tabs>
      </main>
    </div>
  );
}

/** /dashboard (spec §2). */
export function DashboardPage() {
  const { data: user } = useGetProfileQuery();
  if (!user) return <PageSpinner label="Loading your profile" />;
  if (user.role === 'SUPER_ADMIN') return <SuperAdminDashboard user={user} />;
  return <StreamerDashboard user={user} />;
}
