/* global console, fetch, localStorage, document, window, URL */
// What a streamer and an admin trip over in the browser (issue 21), in Chromium at 1920 and 360 px:
// a bot card that says why the bot does not listen, confirmations before destructive actions, a
// save that survives an expired session, chat that reads like Kick, titles and one h1. Each
// scenario fails on any console error of its own pages. Self-contained (its own user and Kick
// channel), so `E2E_ONLY=browser-ui npm run test:e2e` runs them alone.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expireSessionAndPress } from './streamer-session.mjs';

const timeout = 20_000;
const run = Date.now().toString(36);
const streamer = { email: `ui-${run}@example.com`, username: `ui_${run}`, password: 'Str0ng!pass' };
const kickName = `uik_${run}`;
const wide = { width: 1920, height: 1080 };
const narrow = { width: 360, height: 740 };

function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** A page whose console errors and uncaught exceptions are collected in `errors`. */
async function newPage(state, errors, viewport = wide) {
  const context = await state.browser.newContext({ baseURL: state.baseUrl, viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  const record = (text) => {
    // the browser logs every non-2xx response (the expected 401) and every image it cannot fetch
    // (Kick's emote CDN is not reachable from the test machine): those are not app errors
    if (/Failed to load resource/.test(text)) return;
    errors.push(`${page.url()}: ${text}`);
    state.consoleErrors.push(`${page.url()}: ${text}`);
  };
  page.on('console', (message) => {
    if (message.type() === 'error') record(message.text());
  });
  page.on('pageerror', (error) => record(`uncaught: ${error.message}`));
  state.lastPage = page;
  return page;
}

/** Runs a scenario body and fails it when any of its pages logged a console error. */
function withoutConsoleErrors(body) {
  return async (state) => {
    const errors = [];
    await body(state, errors);
    check(errors.length === 0, `console errors:\n${errors.join('\n')}`);
  };
}

const toast = (page, text) => page.locator('.toast', { hasText: text }).first();

async function api(state, method, url, body, token) {
  const response = await fetch(`${state.baseUrl}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => undefined) };
}

async function tokenOf(state, { email, password }) {
  const login = await api(state, 'POST', '/api/platform/login', { email, password });
  check(login.status === 200, `API login of ${email} (${login.status})`);
  return login.json.data.token;
}

async function signedInPage(state, errors, token, url, viewport) {
  const page = await newPage(state, errors, viewport);
  await page.goto('/');
  await page.evaluate((value) => localStorage.setItem('token', value), token);
  await page.goto(url);
  return page;
}

async function adminToken(state) {
  const text = await readFile(path.join(state.dataDir, 'admin-credentials.txt'), 'utf8');
  const field = (name) => text.match(new RegExp(`^${name}: (.+)$`, 'm'))?.[1]?.trim();
  return tokenOf(state, { email: field('email'), password: field('password') });
}

// a string would match case-insensitively anywhere, "Not connected to chat" too
const connectedToChat = /^Connected to chat/;

const waitForDashboard = (page) => page.getByTestId('dashboard-username').waitFor({ timeout: 30_000 });

/** Inside the open confirmation, Tab never leaves it. */
async function checkFocusStaysIn(page) {
  for (let step = 0; step < 4; step += 1) {
    await page.keyboard.press('Tab');
    const isInside = await page.evaluate(() => Boolean(document.activeElement?.closest('dialog')));
    check(isInside, 'the focus stays inside the confirmation');
  }
}

/** The WCAG 2.1 A/AA violations of impact serious or critical on the page as it is, one line each. */
async function seriousViolations(page, where) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => {
      const targets = violation.nodes.map((node) => node.target.join(' ')).slice(0, 5);
      // the first node's reason names the measured figures (e.g. the contrast ratio and both colours)
      const reason = violation.nodes[0]?.any[0]?.message ?? violation.nodes[0]?.failureSummary ?? '';
      return `${where}: [${violation.impact}] ${violation.id}: ${violation.help} (${targets.join(' | ')}): ${reason}`;
    });
}

export const browserUiScenarios = [
  {
    name: 'browser-ui: Deny on Kick is a calm note; the bot card offers the link, then the bot starts',
    run: withoutConsoleErrors(async (state, errors) => {
      const registered = await api(state, 'POST', '/api/platform/register', streamer);
      check(registered.status === 201, `registered (${registered.status})`);
      state.uiStreamerToken = await tokenOf(state, streamer);
      const page = await signedInPage(state, errors, state.uiStreamerToken, '/dashboard');
      state.uiStreamerPage = page;
      await waitForDashboard(page);
      check((await page.title()) === 'Setup · Kickstand', `the tab title names the page (${await page.title()})`);
      check((await page.getByRole('heading', { level: 1 }).count()) === 1, 'one h1 on the dashboard');

      const welcome = page.getByRole('dialog', { name: 'Welcome to Kickstand!' });
      await welcome.getByRole('button', { name: 'Link Kick Account' }).click();
      await page.waitForURL(`${state.sandboxUrl}/**`);
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.waitForURL(`${state.baseUrl}/dashboard**`);
      await toast(page, 'You cancelled linking on Kick, so nothing changed.').waitFor();
      check((await page.locator('.toast-error').count()) === 0, 'Deny shows no error');
      // still unlinked: the welcome modal offers the link again; close it to reach the bot card
      await welcome.waitFor();
      await welcome.getByRole('button', { name: 'Close' }).click();
      await welcome.waitFor({ state: 'detached' });

      const reason = page.getByTestId('bot-reason');
      await reason.getByText('Link your Kick account so the bot can join your chat.').waitFor();
      await reason.getByRole('button', { name: 'Link Kick Account' }).click();
      await page.waitForURL(`${state.sandboxUrl}/**`);
      await page.locator('#new_username').fill(kickName);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(`${state.baseUrl}/dashboard**`);
      await toast(page, 'Kick account linked successfully!').waitFor();
      await waitForDashboard(page);
      await page.getByRole('button', { name: 'Start Bot' }).click();
      await page.getByTestId('bot-connection').filter({ hasText: connectedToChat }).waitFor();
      // the bot's status and the linked account are two queries that refresh apart: the explanation
      // may outlive "Connected to chat" by a render, but must go
      await reason.waitFor({ state: 'detached', timeout: 10_000 }).catch(async () => {
        throw new Error(`a listening bot needs no explanation (it says: ${await reason.textContent()})`);
      });
    }),
  },
  {
    name: "browser-ui: the admin's Unsubscribe All asks and names the bot; the streamer's card says why and reconnects",
    needs: ['browser-ui: Deny on Kick is a calm note; the bot card offers the link, then the bot starts'],
    run: withoutConsoleErrors(async (state, errors) => {
      state.uiAdminToken = await adminToken(state);
      const admin = await signedInPage(state, errors, state.uiAdminToken, '/admin/webhooks');
      await admin.getByRole('heading', { name: 'Webhook Management' }).waitFor();
      check((await admin.title()) === 'Webhook · Admin · Kickstand', `the admin tab title (${await admin.title()})`);
      const option = `${streamer.username} (@${kickName})`;
      await admin.getByRole('option', { name: option }).waitFor({ state: 'attached' });
      await admin.getByLabel('User', { exact: true }).selectOption({ label: option });
      await admin.getByTestId('subscription-row').first().waitFor();
      const before = await admin.getByTestId('subscription-row').count();

      await admin.getByRole('button', { name: 'Unsubscribe All', exact: true }).click();
      const confirmation = admin.getByRole('alertdialog', { name: 'Unsubscribe from all events' });
      await confirmation.waitFor();
      const text = await confirmation.textContent();
      check(text.includes(`This deafens the bot in @${kickName}'s chat`), `the confirmation names the bot: ${text}`);
      await checkFocusStaysIn(admin);
      await admin.keyboard.press('Escape');
      await confirmation.waitFor({ state: 'detached' });
      check((await admin.getByTestId('subscription-row').count()) === before, 'Escape removed nothing');

      await admin.getByRole('button', { name: 'Unsubscribe All', exact: true }).click();
      await confirmation.getByRole('button', { name: 'Unsubscribe All', exact: true }).click();
      await toast(admin, 'Unsubscribed from all events').waitFor();

      const page = state.uiStreamerPage;
      state.lastPage = page;
      const reason = page.getByTestId('bot-reason');
      await reason
        .getByText('An administrator removed the bot’s chat subscription, so the bot hears nothing.')
        .waitFor();
      await reason.getByRole('button', { name: 'Reconnect' }).click();
      await page.getByTestId('bot-connection').filter({ hasText: connectedToChat }).waitFor();
      await reason.waitFor({ state: 'detached' });
      await admin.context().close();
    }),
  },
  {
    name: 'browser-ui: live chat shows emotes as images, links with noopener nofollow, long words wrapped',
    needs: ['browser-ui: Deny on Kick is a calm note; the bot card offers the link, then the bot starts'],
    run: withoutConsoleErrors(async (state) => {
      const page = state.uiStreamerPage;
      state.lastPage = page;
      await page.getByRole('tab', { name: 'Live Chat' }).click();
      check((await page.title()) === 'Live Chat · Kickstand', 'the tab title follows the tab');
      const longWord = 'w'.repeat(300);
      const sent = await fetch(`${state.sandboxUrl}/sandbox/api/events/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          broadcaster: kickName,
          sender: 'viewer_alice',
          content: `gg [emote:37226:KEKW] see https://kick.com/${kickName} ${longWord}`,
        }),
      });
      check(sent.status === 201 || sent.status === 200, `the sandbox took the chat line (${sent.status})`);
      const line = page.getByTestId('chat-line').filter({ hasText: 'gg' }).first();
      await line.waitFor();
      const emote = line.getByRole('img', { name: 'KEKW' });
      check((await emote.getAttribute('src')) === 'https://files.kick.com/emotes/37226/fullsize', 'the emote image');
      check(!(await line.textContent()).includes('[emote:'), 'no raw emote token');
      const link = line.getByRole('link', { name: `https://kick.com/${kickName}` });
      check((await link.getAttribute('rel')) === 'noopener nofollow', 'the link is rel="noopener nofollow"');
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      check(fits, 'a 300-letter word wraps instead of widening the page');
    }),
  },
  {
    name: 'browser-ui: unlink asks first and Escape cancels',
    needs: ['browser-ui: Deny on Kick is a calm note; the bot card offers the link, then the bot starts'],
    run: withoutConsoleErrors(async (state) => {
      const page = state.uiStreamerPage;
      state.lastPage = page;
      await page.getByRole('tab', { name: 'Kick Account' }).click();
      await page.getByRole('button', { name: 'Unlink Account' }).click();
      const confirmation = page.getByRole('alertdialog', { name: 'Unlink Kick account' });
      await confirmation.waitFor();
      check(await page.evaluate(() => document.activeElement?.textContent === 'Cancel'), 'Cancel has the focus first');
      await page.keyboard.press('Escape');
      await confirmation.waitFor({ state: 'detached' });
      await page.getByText('Account Linked', { exact: true }).waitFor();
    }),
  },
  {
    name: 'browser-ui: a command saved as the session expires is kept and saved after signing in again',
    needs: ['browser-ui: Deny on Kick is a calm note; the bot card offers the link, then the bot starts'],
    run: withoutConsoleErrors(async (state) => {
      const page = state.uiStreamerPage;
      state.lastPage = page;
      await page.getByRole('tab', { name: 'Commands' }).click();
      await page.getByRole('button', { name: 'Add Command' }).click();
      await page.getByLabel('Command name').fill('uikept');
      await page.getByLabel('Response').fill('typed before the session expired');
      await expireSessionAndPress(page, page.getByRole('button', { name: 'Save Command' }));

      const again = page.getByRole('dialog', { name: 'Sign in again' });
      await again.waitFor();
      check(new URL(page.url()).pathname === '/dashboard', 'still on the dashboard');
      await again.getByLabel('Email').fill(streamer.email);
      await again.getByLabel('Password', { exact: true }).fill(streamer.password);
      await again.getByRole('button', { name: 'Login', exact: true }).click();
      await again.waitFor({ state: 'detached' });
      await page.getByText('$uikept').waitFor();
      // the oldest of four is closing (its 300 ms animation): only the others count as shown
      const texts = await page.locator('.toast:not(.toast-closing) .toast-message').allTextContents();
      check(
        texts.filter((text) => text === 'Your session has expired. Please log in again.').length === 1,
        `one expiry toast: ${texts}`,
      );
      check(!texts.some((text) => /fail/i.test(text)), `no failure toast: ${texts}`);
      check(texts.length <= 3, `at most three toasts: ${texts}`);
    }),
  },
  {
    name: 'browser-ui: at 360 px every dashboard tab is on screen and the users page shows its actions (also at 1920 px)',
    needs: ['browser-ui: Deny on Kick is a calm note; the bot card offers the link, then the bot starts'],
    run: withoutConsoleErrors(async (state, errors) => {
      const token = await tokenOf(state, streamer);
      const phone = await signedInPage(state, errors, token, '/dashboard', narrow);
      await waitForDashboard(phone);
      for (const name of ['Kick Account', 'Setup', 'Commands', 'Live Chat']) {
        const box = await phone.getByRole('tab', { name }).boundingBox();
        check(box && box.x >= 0 && box.x + box.width <= narrow.width, `the ${name} tab is on screen at 360 px`);
      }
      const fits = () => phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      check(await fits(), 'the dashboard has no sideways scroll at 360 px');
      await phone.context().close();

      for (const viewport of [narrow, wide]) {
        const admin = await signedInPage(
          state,
          errors,
          state.uiAdminToken ?? (await adminToken(state)),
          '/admin/users',
          viewport,
        );
        await admin.getByRole('searchbox', { name: 'Search users' }).fill(streamer.username);
        const button = admin.getByRole('button', { name: `Deactivate ${streamer.username}` });
        await button.waitFor();
        const box = await button.boundingBox();
        check(
          box && box.x >= 0 && box.x + box.width <= viewport.width,
          `Deactivate is within the screen at ${viewport.width} px`,
        );
        const isFlat = await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
        check(isFlat, `the users page has no sideways scroll at ${viewport.width} px`);
        await admin.context().close();
      }
      state.lastPage = state.uiStreamerPage;
    }),
  },
  {
    name: 'browser-ui: the admin changes a role after confirming; the last super admin keeps the role',
    needs: ['browser-ui: Deny on Kick is a calm note; the bot card offers the link, then the bot starts'],
    run: withoutConsoleErrors(async (state, errors) => {
      const admin = await signedInPage(state, errors, state.uiAdminToken ?? (await adminToken(state)), '/admin/users');
      await admin.getByRole('heading', { level: 1, name: 'User Management' }).waitFor();
      check((await admin.title()) === 'Users · Admin · Kickstand', `the admin tab title (${await admin.title()})`);
      const search = admin.getByRole('searchbox', { name: 'Search users' });
      await search.fill(streamer.username);
      const row = admin.locator(`[data-testid="user-row"][data-username="${streamer.username}"]`);
      await row.getByRole('button', { name: `Make ${streamer.username} SUPER_ADMIN`, exact: true }).click();
      const confirmation = admin.getByRole('alertdialog', { name: 'Change role' });
      await confirmation.getByRole('button', { name: 'Make Admin', exact: true }).click();
      await toast(admin, `${streamer.username} is now SUPER_ADMIN`).waitFor();
      await row.getByRole('button', { name: `Make ${streamer.username} USER`, exact: true }).click();
      await confirmation.getByRole('button', { name: 'Make User', exact: true }).click();
      await toast(admin, `${streamer.username} is now USER`).waitFor();

      await search.fill('admin');
      const self = admin.locator('[data-testid="user-row"][data-username="admin"]');
      await self.getByRole('button', { name: 'Make admin USER', exact: true }).click();
      await confirmation.getByRole('button', { name: 'Make User', exact: true }).click();
      await toast(admin, 'The last super admin cannot become a user').waitFor();
      await self.getByText('SUPER_ADMIN', { exact: true }).waitFor();
      await admin.context().close();
      state.lastPage = state.uiStreamerPage;
    }),
  },
  {
    name: 'browser-ui: an axe-core scan of every route finds no serious or critical violation',
    needs: ['browser-ui: Deny on Kick is a calm note; the bot card offers the link, then the bot starts'],
    run: withoutConsoleErrors(async (state, errors) => {
      const found = [];
      const scan = async (page, where) => {
        const lines = await seriousViolations(page, where);
        // shown as found, so a later step that times out still tells what the scan saw
        for (const line of lines) console.log(`      axe: ${line}`);
        found.push(...lines);
      };

      const visitor = await newPage(state, errors);
      await visitor.goto('/');
      await visitor.getByRole('heading', { level: 1 }).waitFor();
      await scan(visitor, 'landing /');
      await visitor.getByRole('button', { name: 'Login', exact: true }).click();
      const dialog = visitor.getByRole('dialog');
      await dialog.getByLabel('Email').waitFor();
      await scan(visitor, 'login dialog on /');
      await dialog.getByRole('tab', { name: 'Register' }).click();
      await dialog.getByLabel('Confirm Password').waitFor();
      await scan(visitor, 'register dialog on /');
      await visitor.goto('/commands');
      await visitor.getByRole('heading', { level: 1, name: 'Bot Commands' }).waitFor();
      await scan(visitor, '/commands');
      await visitor.goto('/kick-error?type=duplicate&username=someone');
      await visitor.getByRole('heading', { level: 1 }).waitFor();
      await scan(visitor, '/kick-error');
      await visitor.context().close();

      // a new streamer's first visit: the welcome dialog over the dashboard
      const newcomer = { email: `axe-${run}@example.com`, username: `axe_${run}`, password: 'Str0ng!pass' };
      const registered = await api(state, 'POST', '/api/platform/register', newcomer);
      check(registered.status === 201, `registered (${registered.status})`);
      const first = await signedInPage(state, errors, await tokenOf(state, newcomer), '/dashboard');
      await first.getByRole('dialog', { name: 'Welcome to Kickstand!' }).waitFor();
      await scan(first, '/dashboard, the welcome dialog');
      await first.context().close();

      const page = await signedInPage(state, errors, state.uiStreamerToken, '/dashboard');
      await waitForDashboard(page);
      for (const tab of ['Kick Account', 'Setup', 'Commands', 'Live Chat']) {
        await page.getByRole('tab', { name: tab }).click();
        await page.getByRole('tabpanel', { name: tab }).waitFor();
        await scan(page, `/dashboard, ${tab} tab`);
      }
      // the one confirmation dialog every destructive action uses
      await page.getByRole('tab', { name: 'Kick Account' }).click();
      await page.getByRole('button', { name: 'Unlink Account' }).click();
      const confirmation = page.getByRole('alertdialog', { name: 'Unlink Kick account' });
      await confirmation.waitFor();
      await scan(page, '/dashboard, the unlink confirmation');
      await page.keyboard.press('Escape');
      await confirmation.waitFor({ state: 'detached' });
      await page.goto('/chat-popout');
      await page.getByRole('heading', { level: 1 }).waitFor();
      await scan(page, '/chat-popout');
      await page.context().close();

      const adminSession = await adminToken(state);
      const admin = await signedInPage(state, errors, adminSession, '/admin');
      const adminPages = [
        ['/admin/dashboard', /^Welcome back/],
        ['/admin/users', 'User Management'],
        ['/admin/webhooks', 'Webhook Management'],
        ['/admin/analytics', 'Analytics'],
        ['/admin/audit', 'Audit Logs'],
        ['/admin/system', 'System'],
        ['/admin/settings', 'Settings'],
      ];
      for (const [url, heading] of adminPages) {
        await admin.goto(url);
        await admin.getByRole('heading', { level: 1, name: heading }).waitFor();
        if (url === '/admin/webhooks') {
          // with a user chosen: its subscriptions, every channel's delivery health and the dead letters
          const option = `${streamer.username} (@${kickName})`;
          await admin.getByRole('option', { name: option }).waitFor({ state: 'attached' });
          await admin.getByLabel('User', { exact: true }).selectOption({ label: option });
          await admin.getByTestId('subscription-row').first().waitFor();
        }
        await scan(admin, url);
      }
      await admin.context().close();
      state.lastPage = state.uiStreamerPage;
      check(found.length === 0, `serious or critical accessibility violations:\n${found.join('\n')}`);
    }),
  },
  {
    name: 'browser-ui: stream analytics counts what viewers type (last 7 days, top chatters, table, 360 px, axe)',
    run: withoutConsoleErrors(async (state, errors) => {
      // its own streamer and channel, so `E2E_ONLY=stream analytics` runs it alone
      const owner = { email: `stats-${run}@example.com`, username: `stats_${run}`, password: 'Str0ng!pass' };
      const channel = `statsk_${run}`;
      const registered = await api(state, 'POST', '/api/platform/register', owner);
      check(registered.status === 201, `registered (${registered.status})`);
      const page = await signedInPage(state, errors, await tokenOf(state, owner), '/dashboard', narrow);
      await waitForDashboard(page);
      const welcome = page.getByRole('dialog', { name: 'Welcome to Kickstand!' });
      await welcome.getByRole('button', { name: 'Link Kick Account' }).click();
      await page.waitForURL(`${state.sandboxUrl}/**`);
      await page.locator('#new_username').fill(channel);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(`${state.baseUrl}/dashboard**`);
      await toast(page, 'Kick account linked successfully!').waitFor();
      await waitForDashboard(page);
      await page.getByRole('button', { name: 'Start Bot' }).click();
      await page.getByTestId('bot-connection').filter({ hasText: connectedToChat }).waitFor();

      const lines = [
        ['viewer_ana', 'first!'],
        ['viewer_ana', 'what a play'],
        ['viewer_ben', 'hello chat'],
      ];
      for (const [sender, content] of lines) {
        const sent = await fetch(`${state.sandboxUrl}/sandbox/api/events/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ broadcaster: channel, sender, content }),
        });
        check(sent.status === 201 || sent.status === 200, `the sandbox took the chat line (${sent.status})`);
      }

      await page.getByRole('link', { name: 'Analytics', exact: true }).click();
      await page.waitForURL('**/dashboard/analytics');
      await page.getByRole('heading', { name: 'No stream seen yet' }).waitFor();
      check((await page.title()) === 'Analytics · Kickstand', `the tab title names the page (${await page.title()})`);
      await page.getByRole('button', { name: 'Last 7 days' }).click();
      // the lines travel webhook → bus → realtime: refresh until all three are counted
      const messages = page.getByTestId('total-messages');
      for (let attempt = 0; !/Messages3$/.test((await messages.textContent().catch(() => '')) ?? ''); attempt += 1) {
        check(attempt < 20, `three messages counted (${await messages.textContent().catch(() => 'none')})`);
        await page.waitForTimeout(500);
        await page.getByRole('button', { name: 'Refresh' }).click();
      }
      check((await page.getByTestId('total-chatters').textContent()) === 'Unique chatters2', 'two unique chatters');
      const top = await page.getByTestId('analytics-top-chatter').allTextContents();
      check(
        top.join(' | ') === 'viewer_ana2 messages | viewer_ben1 messages',
        `top chatters by lines (${top.join(' | ')})`,
      );
      await page.getByRole('img', { name: /^Chat messages per hour: 3 messages/ }).waitFor();

      const chart = page.getByRole('region', { name: 'Chat messages per hour', exact: true });
      await chart.getByRole('button', { name: 'Show as table' }).click();
      const table = chart.getByRole('table', { name: 'Chat messages per hour' });
      await table.waitFor();
      const counted = await table
        .locator('tbody td')
        .allTextContents()
        .then((cells) => cells.reduce((total, cell) => total + Number(cell.replace(/\D/g, '')), 0));
      check(counted === 3, `the table's hours add up to the three lines (${counted})`);
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      check(fits, 'the analytics page has no sideways scroll at 360 px');
      // for a look at the charts at 360 px (kept with the run's artifacts)
      await page.screenshot({ path: path.join(state.artifacts, 'analytics-360.png'), fullPage: true });
      const violations = await seriousViolations(page, '/dashboard/analytics');
      check(violations.length === 0, `serious or critical accessibility violations:\n${violations.join('\n')}`);
      await page.context().close();
    }),
  },
];
