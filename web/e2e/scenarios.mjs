/* global fetch, localStorage, document, window, URL */
// The end-to-end scenarios, in order; `needs` names scenarios that must have passed first.
// Each gets the shared state: { baseUrl, sandboxUrl, artifacts, browser, dataDir, consoleErrors, … }.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expireSessionAndPress } from './streamer-session.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const timeout = 20_000;
const botReply = 'Hello! This is a test command. The bot is working correctly!';
const run = `${Date.now().toString(36)}`;
const user1 = { email: `streamer-${run}@example.com`, username: `streamer_${run}`, password: 'Str0ng!pass' };
const user2 = { email: `second-${run}@example.com`, username: `second_${run}`, password: 'Str0ng!pass' };
const user3 = { email: `third-${run}@example.com`, username: `third_${run}`, password: 'Str0ng!pass' };

function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function newPage(state, { viewport = { width: 1280, height: 860 } } = {}) {
  const context = await state.browser.newContext({ baseURL: state.baseUrl, viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  const record = (text) => {
    // the browser logs every non-2xx response; the expected 401/409s are not app errors
    if (!/Failed to load resource/.test(text)) state.consoleErrors.push(`${page.url()}: ${text}`);
  };
  page.on('console', (message) => {
    if (message.type() === 'error') record(message.text());
  });
  page.on('pageerror', (error) => record(`uncaught: ${error.message}`));
  state.lastPage = page;
  return page;
}

const shot = (state, page, name) => page.screenshot({ path: path.join(state.artifacts, name), fullPage: true });

const toast = (page, text) => page.locator('.toast', { hasText: text }).first();

/** Presses the button of the open confirmation dialog (every destructive action asks first). */
async function confirmWith(page, name) {
  await page.getByRole('alertdialog').getByRole('button', { name, exact: true }).click();
}

async function registerThroughUi(page, user) {
  await page.goto('/');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Register' }).click();
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Username').fill(user.username);
  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByLabel('Confirm Password').fill(user.password);
  await dialog.getByRole('button', { name: 'Register', exact: true }).click();
  await toast(page, 'Registration successful! Please login.').waitFor();
  return dialog;
}

async function loginThroughUi(page, user, { isModalOpen = false } = {}) {
  if (!isModalOpen) {
    await page.goto('/');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
  }
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: 'Login', exact: true }).click();
  await toast(page, 'Login successful!').waitFor();
  await page.waitForURL('**/dashboard');
}

async function api(state, method, url, body, token) {
  const response = await fetch(`${state.baseUrl}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json().catch(() => undefined);
  return { status: response.status, json };
}

/** Waits for the dashboard after its splash (the plain splash ends once the socket connects, at most 15 s). */
async function waitForDashboard(page) {
  await page.getByTestId('dashboard-username').waitFor({ timeout: 30_000 });
}

async function approveOnSandbox(page, state, kickUsername) {
  await page.waitForURL(`${state.sandboxUrl}/**`);
  await page.locator('#existing_username').selectOption(kickUsername);
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.waitForURL(`${state.baseUrl}/dashboard**`);
}

/** The first super administrator: single-machine mode writes DATA_DIR/admin-credentials.txt at the first start. */
async function superAdminOf(state) {
  const text = await readFile(path.join(state.dataDir, 'admin-credentials.txt'), 'utf8');
  const field = (name) => text.match(new RegExp(`^${name}: (.+)$`, 'm'))?.[1]?.trim();
  const admin = { email: field('email'), password: field('password') };
  check(admin.email && admin.password, 'admin-credentials.txt has an email and a password line');
  return admin;
}

/** A number shown on a dashboard stat card. */
async function statValue(page, id) {
  const text = await page.getByTestId(`stat-${id}`).locator('.stat-value').textContent();
  return Number(text.replace(/,/g, ''));
}

/** The admin's page at /admin/users with the list narrowed to one user. */
async function findUserRow(page, username) {
  await page.goto('/admin/users');
  await page.getByRole('searchbox', { name: 'Search users' }).fill(username);
  const row = page.locator(`[data-testid="user-row"][data-username="${username}"]`);
  await row.waitFor();
  return row;
}

/** Refreshes the audit log until every action is listed (other services report theirs over the bus). */
async function waitForAuditActions(page, actions) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const shown = await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((row) => row.dataset.action));
    const missing = actions.filter((action) => !shown.includes(action));
    if (missing.length === 0) return;
    if (Date.now() > deadline) throw new Error(`the audit log lacks: ${missing.join(', ')}`);
    await page.waitForTimeout(500);
    await page.getByRole('button', { name: 'Refresh' }).click();
  }
}

/** Types a line as a viewer in the sandbox's own chat page, as a person trying Kickstand would; answers the page. */
async function typeInSandboxChat(state, { viewer, content }) {
  const page = await newPage(state);
  await page.goto(`${state.sandboxUrl}/sandbox`);
  const channel = await page.locator('#channel option', { hasText: 'sandbox_streamer' }).getAttribute('value');
  await page.locator('#channel').selectOption(channel);
  await page.locator('#viewer').fill(viewer);
  await page.locator('#content').fill(content);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.locator('#status', { hasText: 'Sent.' }).waitFor();
  return page;
}

/** Reloads the dashboard until `read` stops throwing (kick-link stores what it saw every 5 s). */
async function untilShownAfterReload(page, read) {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.waitForTimeout(1000);
      await page.reload();
      await waitForDashboard(page);
    }
  }
}

/**
 * The streamer's journey, run in every pass: register, sign in, link the sandbox channel, start the
 * bot; a viewer's $test is answered in the dashboard's live chat, which names who replies, and the
 * delivery-health card counts the deliveries. `sender`: the Kick account the replies are posted as
 * (`name`), whether Kick refused the app's bot first (`isFallback`, real Kick) and the health card's
 * label of that sender. `typeInSandboxPage`: the viewer types in the sandbox's chat page rather
 * than through its control API.
 */
function streamerJourney({ user, viewer, sender, typeInSandboxPage = false }) {
  return [
    {
      name: 'register',
      run: async (state) => {
        const page = await newPage(state);
        const dialog = await registerThroughUi(page, user);
        check(
          (await dialog.getByRole('tab', { name: 'Login' }).getAttribute('aria-selected')) === 'true',
          'the Login tab is selected after registering',
        );
        check((await dialog.getByLabel('Email').inputValue()) === '', 'the form is cleared');
        check(new URL(page.url()).pathname === '/', 'still on / (registration does not sign in)');
        state.page1 = page;
      },
    },
    {
      name: 'login and welcome modal',
      needs: ['register'],
      run: async (state) => {
        const page = state.page1;
        state.lastPage = page;
        await loginThroughUi(page, user, { isModalOpen: true });
        await waitForDashboard(page);
        const welcome = page.getByRole('dialog', { name: 'Welcome to Kickstand!' });
        await welcome.waitFor();
        await shot(state, page, 'welcome-modal.png');
        check(
          (await page.getByTestId('dashboard-username').textContent()) === user.username,
          'the header shows the username',
        );
      },
    },
    {
      name: 'link Kick account through the sandbox',
      needs: ['login and welcome modal'],
      run: async (state) => {
        const page = state.page1;
        state.lastPage = page;
        await page
          .getByRole('dialog', { name: 'Welcome to Kickstand!' })
          .getByRole('button', { name: 'Link Kick Account' })
          .click();
        await approveOnSandbox(page, state, 'sandbox_streamer');
        await toast(page, 'Kick account linked successfully!').waitFor();
        await page.waitForURL((url) => url.pathname === '/dashboard' && url.search === '');
        await waitForDashboard(page);
        await page.getByRole('tab', { name: 'Kick Account' }).click();
        await page.getByRole('heading', { name: 'sandbox_streamer' }).waitFor();
        await page.getByText('Account Linked', { exact: true }).waitFor();
        check((await page.getByRole('dialog').count()) === 0, 'no welcome modal once linked');
        await shot(state, page, 'dashboard-kick.png');
      },
    },
    {
      name: 'start the bot',
      needs: ['link Kick account through the sandbox'],
      run: async (state) => {
        const page = state.page1;
        state.lastPage = page;
        await page.getByRole('button', { name: 'Start Bot' }).click();
        await page.getByTestId('bot-running').filter({ hasText: 'Running' }).waitFor();
      },
    },
    {
      name: 'live chat: a viewer types $test and the bot replies',
      needs: ['start the bot'],
      run: async (state) => {
        const page = state.page1;
        state.lastPage = page;
        await page.getByRole('tab', { name: 'Live Chat' }).click();
        if (typeInSandboxPage) {
          const sandboxPage = await typeInSandboxChat(state, { viewer, content: '$test' });
          // the sandbox's page shows the chat as Kick has it: the bot's answer is there too
          await sandboxPage.locator('#log', { hasText: botReply }).waitFor();
          await shot(state, sandboxPage, 'sandbox-chat.png');
          await sandboxPage.context().close();
          state.lastPage = page;
        } else {
          const sent = await fetch(`${state.sandboxUrl}/sandbox/api/events/chat`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ broadcaster: 'sandbox_streamer', sender: viewer, content: '$test' }),
          });
          check(sent.status === 201 || sent.status === 200, `the sandbox took the chat line (${sent.status})`);
        }
        const lines = page.getByTestId('chat-line');
        await lines.filter({ hasText: viewer }).filter({ hasText: '$test' }).first().waitFor();
        const reply = lines.filter({ hasText: botReply });
        await reply.first().waitFor();
        const replyText = await reply.first().textContent();
        check(replyText.includes(`Replying to @${viewer}`), `the reply has its Replying to line: ${replyText}`);
        check(replyText.includes('@Kickstand'), 'the reply is from @Kickstand');
        await page.waitForTimeout(2000);
        check((await reply.count()) === 1, `the bot reply shows once (found ${await reply.count()})`);
        await shot(state, page, 'dashboard-chat.png');
      },
    },
    {
      name: 'the dashboard says who the replies are posted as',
      needs: ['live chat: a viewer types $test and the bot replies'],
      run: async (state) => {
        const page = state.page1;
        state.lastPage = page;
        // the line was loaded before the first reply, when Kick had not refused the app's bot yet
        await page.reload();
        await waitForDashboard(page);
        const line = page.getByTestId('reply-sender');
        await line.getByText(`Replies are posted as @${sender.name}`).waitFor();
        const text = await line.textContent();
        const fallback =
          'Kick refused the app’s bot in your channel (Internal server error), so replies are posted from your own account';
        check(
          text.includes(fallback) === sender.isFallback,
          `the fallback is ${sender.isFallback ? '' : 'not '}explained: ${text}`,
        );
        check(!text.includes('Last reply failed'), `no failed reply: ${text}`);
        await shot(state, page, 'dashboard-reply-sender.png');
      },
    },
    {
      name: 'the delivery-health card counts the deliveries and the reply',
      needs: ['live chat: a viewer types $test and the bot replies'],
      run: async (state) => {
        const page = state.page1;
        state.lastPage = page;
        await untilShownAfterReload(page, async () => {
          await page.getByRole('tab', { name: 'Kick Account' }).click();
          const card = page.getByRole('region', { name: 'Delivery health' });
          await card.getByTestId('health-replies').waitFor({ timeout: 2000 });
          const delivered = await card.getByTestId('health-last-delivery').textContent();
          const accepted = Number(/(\d+) accepted/.exec(delivered)?.[1] ?? 0);
          check(accepted >= 2, `the $test line and the bot's own line were accepted: ${delivered}`);
          const replies = await card.getByTestId('health-replies').textContent();
          check(replies.includes(`${sender.healthLabel}: 1 sent, 0 failed, 0 dropped`), `one reply sent: ${replies}`);
          const kickError = await card.getByTestId('health-kick-error').textContent();
          // the fallback from `type: "bot"` is the plan on real Kick, not a Kick error (the sender line says it)
          check(!/refused the app.s bot/.test(kickError), `no Kick error for the planned fallback: ${kickError}`);
        });
        await shot(state, page, 'dashboard-delivery-health.png');
      },
    },
  ];
}

export const scenarios = [
  {
    name: 'landing page',
    run: async (state) => {
      const page = await newPage(state);
      await page.goto('/');
      await page.getByRole('heading', { level: 1, name: 'Kickstand' }).waitFor();
      check((await page.locator('.feature-card').count()) === 6, 'six feature cards');
      await shot(state, page, 'landing.png');
      await page.getByRole('button', { name: 'Learn More' }).click();
      await page.getByRole('button', { name: 'Get Started Free' }).click();
      await page.getByRole('dialog').waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.getByRole('link', { name: 'Commands' }).first().click();
      await page.getByText('Custom Commands Available After Login').waitFor();
      await page.getByRole('heading', { name: 'Dota 2' }).waitFor();
      await page.getByRole('button', { name: 'Show Rules' }).first().click();
      await page.getByRole('button', { name: 'Hide Rules' }).first().waitFor();
      await shot(state, page, 'public-commands.png');
      await page.context().close();
    },
  },
  ...streamerJourney({
    user: user1,
    viewer: 'viewer_alice',
    sender: { name: 'sandbox_streamer', isFallback: false, healthLabel: 'Streamer account (as bot)' },
  }),
  {
    name: 'chat popout',
    needs: ['login and welcome modal'],
    run: async (state) => {
      const page = state.page1;
      state.lastPage = page;
      await page.getByRole('tab', { name: 'Live Chat' }).click();
      const [popup] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByRole('button', { name: 'Pop Out Chat' }).click(),
      ]);
      await popup.waitForLoadState();
      check(new URL(popup.url()).pathname === '/chat-popout', `the popout is /chat-popout (${popup.url()})`);
      await popup.getByRole('img', { name: 'Connected' }).waitFor({ timeout: 30_000 });
      await shot(state, popup, 'chat-popout.png');
      await popup.close();
    },
  },
  {
    name: 'add and remove a command',
    needs: ['login and welcome modal'],
    run: async (state) => {
      const page = state.page1;
      state.lastPage = page;
      await page.getByRole('tab', { name: 'Commands' }).click();
      await page.getByRole('heading', { name: /Current Commands/ }).waitFor();
      await page.getByRole('button', { name: 'Add Command' }).click();
      await page.getByLabel('Command name').fill('hello');
      await page.getByLabel('Response').fill('Hi {user}, welcome!');
      await page.getByRole('button', { name: 'Save Command' }).click();
      await toast(page, 'Command "hello" added successfully!').waitFor();
      await page.getByText('$hello', { exact: true }).waitFor();
      await shot(state, page, 'dashboard-commands.png');
      await page.getByRole('button', { name: 'Remove $hello' }).click();
      const confirm = page.getByRole('alertdialog');
      const text = await confirm.textContent();
      check(text.includes('Are you sure you want to remove the command $hello?'), `the confirmation text: ${text}`);
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await toast(page, 'Command "hello" removed successfully!').waitFor();
      await page.getByText('$hello', { exact: true }).waitFor({ state: 'detached' });
    },
  },
  {
    // self-contained (its own streamer through the API), so E2E_ONLY=import runs it alone
    name: 'import commands from Nightbot: preview and apply',
    run: async (state) => {
      const streamer = { email: `importer-${run}@example.com`, username: `importer_${run}`, password: 'Str0ng!pass' };
      const registered = await api(state, 'POST', '/api/platform/register', streamer);
      check(registered.status === 201, `API register (${registered.status})`);
      const page = await newPage(state);
      await page.goto('/');
      await page.evaluate((token) => localStorage.setItem('token', token), registered.json.data.token);
      await page.goto('/dashboard');
      await waitForDashboard(page);
      const welcome = page.getByRole('dialog', { name: 'Welcome to Kickstand!' });
      if (
        await welcome.waitFor({ timeout: 5_000 }).then(
          () => true,
          () => false,
        )
      )
        await page.keyboard.press('Escape');
      await page.getByRole('tab', { name: 'Commands' }).click();
      await page.getByText('$test', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Import commands' });
      await dialog.getByLabel('Bot').selectOption('nightbot');
      const sample = path.resolve(
        here,
        '..',
        '..',
        'services',
        'commands',
        'src',
        'import',
        'samples',
        'nightbot.json',
      );
      await dialog.getByLabel('Or choose a file').setInputFiles(sample);
      await dialog.getByRole('button', { name: 'Preview' }).click();
      await dialog.getByRole('table').waitFor();
      const so = dialog.getByRole('row').filter({ hasText: '$so' });
      const soText = await so.textContent();
      check(soText.includes('not translated, kept as text'), `$(1) is marked as not translated: ${soText}`);
      const hugText = await dialog.getByRole('row').filter({ hasText: '$hug' }).textContent();
      check(hugText.includes('$(touser) → {touser}'), `$(touser) is translated: ${hugText}`);
      await shot(state, page, 'import-preview.png');
      await dialog.getByRole('checkbox', { name: 'Import $so' }).uncheck();
      await dialog.getByRole('button', { name: 'Import 3 commands' }).click();
      await dialog.getByText('3 commands imported.').waitFor();
      await shot(state, page, 'import-done.png');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await page.getByText('{user} hugs {touser}! That is hug number {count}.', { exact: true }).waitFor();
      await page.getByText('$8ball', { exact: true }).waitFor();
      check((await page.getByText('$so', { exact: true }).count()) === 0, 'the unselected $so was not imported');
      await page.getByTestId('usage-hug').getByText('Never used').waitFor();
      await page.context().close();
    },
  },
  {
    name: 'setup tab and Dota 2 setting',
    needs: ['login and welcome modal'],
    run: async (state) => {
      const page = state.page1;
      state.lastPage = page;
      await page.getByRole('tab', { name: 'Setup' }).click();
      await page.getByRole('heading', { name: 'Bot Setup & Configuration' }).waitFor();
      await shot(state, page, 'dashboard-setup.png');
      await page.getByRole('tab', { name: 'Settings' }).click();
      const steam = page.getByLabel('Steam account ID');
      await steam.fill('70388657');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await toast(page, 'Dota 2 settings saved!').waitFor();
      await shot(state, page, 'dashboard-setup-settings.png');
      await page.getByRole('tab', { name: 'Overview' }).click();
    },
  },
  {
    name: 'usable at 360 px',
    needs: ['login and welcome modal'],
    run: async (state) => {
      const page = await newPage(state, { viewport: { width: 360, height: 740 } });
      await page.goto('/');
      await page.getByRole('heading', { level: 1, name: 'Kickstand' }).waitFor();
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      check(await fits(), 'the landing page has no sideways scroll at 360 px');
      await shot(state, page, 'landing-360.png');
      const login = await api(state, 'POST', '/api/platform/login', { email: user1.email, password: user1.password });
      check(login.status === 200, `API login (${login.status})`);
      await page.evaluate((token) => localStorage.setItem('token', token), login.json.data.token);
      await page.goto('/dashboard');
      await waitForDashboard(page);
      check(await fits(), 'the dashboard has no sideways scroll at 360 px');
      await shot(state, page, 'dashboard-360.png');
      await page.context().close();
    },
  },
  {
    name: 'duplicate link: error toast and /kick-error page',
    needs: ['link Kick account through the sandbox'],
    run: async (state) => {
      const registered = await api(state, 'POST', '/api/platform/register', user2);
      check(registered.status === 201, `second user registered (${registered.status})`);
      const page = await newPage(state);
      state.page2 = page;
      await loginThroughUi(page, user2);
      await waitForDashboard(page);
      await page
        .getByRole('dialog', { name: 'Welcome to Kickstand!' })
        .getByRole('button', { name: 'Link Kick Account' })
        .click();
      await approveOnSandbox(page, state, 'sandbox_streamer');
      await toast(page, 'The Kick account @sandbox_streamer is already linked to another user.').waitFor();
      await page.waitForURL((url) => url.pathname === '/dashboard' && url.search === '');
      await page.goto('/kick-error?type=duplicate&username=sandbox_streamer');
      await page.getByRole('heading', { name: 'Account Already Linked' }).waitFor();
      await page.getByText('@sandbox_streamer').waitFor();
      await shot(state, page, 'kick-error.png');
      await page.waitForURL('**/dashboard', { timeout: 10_000 });
    },
  },
  {
    name: 'logout',
    needs: ['duplicate link: error toast and /kick-error page'],
    run: async (state) => {
      const page = state.page2;
      state.lastPage = page;
      await waitForDashboard(page);
      // the second user has no linked account: the welcome modal is offered again; close it first
      const welcome = page.getByRole('dialog', { name: 'Welcome to Kickstand!' });
      if (await welcome.isVisible()) await welcome.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('button', { name: 'Exit' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByRole('button', { name: 'Get Started Free' }).waitFor();
      check((await page.evaluate(() => localStorage.getItem('token'))) === null, 'the token is removed');
      await page.goto('/dashboard');
      await page.waitForURL((url) => url.pathname === '/');
      await page.context().close();
    },
  },
  {
    name: 'session expiry',
    needs: ['login and welcome modal'],
    run: async (state) => {
      const page = state.page1;
      state.lastPage = page;
      await page.getByRole('tab', { name: 'Commands' }).click();
      await page.getByRole('button', { name: 'Add Command' }).click();
      await page.getByLabel('Command name').fill('expired');
      await page.getByLabel('Response').fill('never saved');
      // the session ends while the form is filled in: the save meets the 401
      await expireSessionAndPress(page, page.getByRole('button', { name: 'Save Command' }));
      await toast(page, 'Your session has expired. Please log in again.').waitFor();
      // the page stays with what was typed, a sign-in dialog over it; signing out leaves
      const again = page.getByRole('dialog', { name: 'Sign in again' });
      await again.waitFor();
      check((await page.getByLabel('Command name').inputValue()) === 'expired', 'the form keeps what was typed');
      check((await page.evaluate(() => localStorage.getItem('token'))) === null, 'the token is removed');
      await shot(state, page, 'session-expired.png');
      await again.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.context().close();
    },
  },
  {
    name: 'admin: the super admin signs in and lands on /admin/dashboard with real counts',
    run: async (state) => {
      const admin = await superAdminOf(state);
      const page = await newPage(state);
      state.adminPage = page;
      await loginThroughUi(page, admin);
      await page.waitForURL('**/admin/dashboard');
      await page.getByRole('heading', { name: /^Welcome back, / }).waitFor();
      await page.getByTestId('stat-total-users').waitFor();
      state.adminToken = await page.evaluate(() => localStorage.getItem('token'));

      const users = await api(state, 'GET', '/api/admin/users?limit=200', undefined, state.adminToken);
      check(users.status === 200, `GET /api/admin/users as the admin (${users.status})`);
      const all = users.json.data.users;
      const audit = await api(state, 'GET', '/api/admin/audit?limit=1', undefined, state.adminToken);
      const expected = {
        'total-users': users.json.data.pagination.total,
        'active-users': all.filter((user) => user.isActive).length,
        'inactive-users': all.filter((user) => !user.isActive).length,
        'total-commands': all.reduce((sum, user) => sum + user._count.commands, 0),
        'audit-logs': audit.json.data.pagination.total,
      };
      check(expected['total-users'] >= 1, `at least the admin (${expected['total-users']})`);
      for (const [id, value] of Object.entries(expected)) {
        const shown = await statValue(page, id);
        check(shown === value, `the ${id} card shows ${value} (shows ${shown})`);
      }
      await page.getByTestId('stat-system-health').getByText('Healthy').waitFor();
      const uptime = await page.getByTestId('stat-uptime').locator('.stat-value').textContent();
      check(/^\d+[smhd]/.test(uptime), `the uptime card shows a duration (${uptime})`);
      await page.getByTestId('activity-item').first().waitFor();
      await shot(state, page, 'admin-dashboard.png');
    },
  },
  {
    name: 'admin: deactivates a user, who then cannot sign in',
    needs: ['admin: the super admin signs in and lands on /admin/dashboard with real counts'],
    run: async (state) => {
      const registered = await api(state, 'POST', '/api/platform/register', user3);
      check(registered.status === 201, `third user registered (${registered.status})`);
      const page = state.adminPage;
      state.lastPage = page;
      const row = await findUserRow(page, user3.username);
      await row.getByRole('button', { name: `Deactivate ${user3.username}` }).click();
      await confirmWith(page, 'Deactivate');
      await toast(page, 'User deactivated successfully').waitFor();
      await row.getByText('Inactive', { exact: true }).waitFor();
      await row.getByRole('button', { name: `Activate ${user3.username}` }).waitFor();
      await shot(state, page, 'admin-users.png');

      const refused = await newPage(state);
      await refused.goto('/');
      await refused.getByRole('button', { name: 'Login', exact: true }).click();
      const dialog = refused.getByRole('dialog');
      await dialog.getByLabel('Email').fill(user3.email);
      await dialog.getByLabel('Password', { exact: true }).fill(user3.password);
      await dialog.getByRole('button', { name: 'Login', exact: true }).click();
      await toast(refused, 'Your account has been deactivated').waitFor();
      check(new URL(refused.url()).pathname === '/', 'still on / after the refused sign-in');
      check((await refused.evaluate(() => localStorage.getItem('token'))) === null, 'no token stored');
      await refused.context().close();
      state.lastPage = page;
    },
  },
  {
    name: 'admin: enables and disables a bot',
    needs: [
      'admin: the super admin signs in and lands on /admin/dashboard with real counts',
      'link Kick account through the sandbox',
    ],
    run: async (state) => {
      const page = state.adminPage;
      state.lastPage = page;
      const row = await findUserRow(page, user1.username);
      await row.getByText('@sandbox_streamer').waitFor();
      await row.getByRole('button', { name: `Disable bot for ${user1.username}` }).click();
      await confirmWith(page, 'Disable Bot');
      await toast(page, 'Bot disabled successfully').waitFor();
      await row.getByRole('button', { name: `Enable bot for ${user1.username}` }).click();
      await toast(page, 'Bot enabled successfully').waitFor();
      await row.getByRole('button', { name: `Disable bot for ${user1.username}` }).waitFor();
      // a user without a linked Kick account has no bot switch
      const plain = await findUserRow(page, user2.username);
      check((await plain.getByRole('button', { name: /bot for/ }).count()) === 0, 'no bot switch without Kick');
    },
  },
  {
    name: 'admin: subscribes and unsubscribes webhooks for a linked user through the sandbox',
    needs: [
      'admin: the super admin signs in and lands on /admin/dashboard with real counts',
      'link Kick account through the sandbox',
    ],
    run: async (state) => {
      const page = state.adminPage;
      state.lastPage = page;
      await page.goto('/admin/webhooks');
      const picker = page.getByLabel('User', { exact: true });
      await page.getByRole('option', { name: `${user1.username} (@sandbox_streamer)` }).waitFor({ state: 'attached' });
      check(
        (await picker.locator('option', { hasText: user2.username }).count()) === 0,
        'only users with a linked Kick account are offered',
      );
      await picker.selectOption({ label: `${user1.username} (@sandbox_streamer)` });
      const rows = page.getByTestId('subscription-row');
      const events = async () => (await rows.evaluateAll((found) => found.map((row) => row.dataset.event))).sort();
      const waitForEvents = async (expected) => {
        const deadline = Date.now() + timeout;
        for (;;) {
          const shown = await events();
          if (expected(shown)) return shown;
          if (Date.now() > deadline) throw new Error(`unexpected subscriptions: ${shown.join(', ')}`);
          await page.waitForTimeout(200);
        }
      };
      const checkbox = (name) => page.getByRole('group', { name: 'Events' }).getByRole('checkbox', { name });
      check(await checkbox('chat.message.sent').isChecked(), 'chat.message.sent is ticked by default');

      await page.getByRole('button', { name: 'Unsubscribe All', exact: true }).click();
      await confirmWith(page, 'Unsubscribe All');
      await toast(page, 'Unsubscribed from all events').waitFor();
      await page.getByText('No subscriptions found').waitFor();

      await page.getByRole('combobox', { name: 'Event', exact: true }).selectOption('channel.followed');
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await toast(page, 'Subscribed successfully').waitFor();
      await waitForEvents((shown) => shown.join() === 'channel.followed');

      await checkbox('moderation.banned').check();
      await page.getByRole('button', { name: 'Subscribe Selected', exact: true }).click();
      await toast(page, 'Subscribed to selected events').waitFor();
      await waitForEvents((shown) => shown.join() === 'channel.followed,chat.message.sent,moderation.banned');

      await page.getByRole('button', { name: 'Subscribe All', exact: true }).click();
      await toast(page, 'Subscribed to all events').waitFor();
      await waitForEvents((shown) => shown.length === 8);
      await shot(state, page, 'admin-webhooks.png');

      await page.getByRole('button', { name: 'Unsubscribe channel.followed' }).click();
      await confirmWith(page, 'Unsubscribe');
      await toast(page, 'Unsubscribed successfully').waitFor();
      await waitForEvents((shown) => shown.length === 7 && !shown.includes('channel.followed'));

      await page.getByRole('button', { name: 'Unsubscribe All', exact: true }).click();
      await confirmWith(page, 'Unsubscribe All');
      await toast(page, 'Unsubscribed from all events').waitFor();
      await page.getByText('No subscriptions found').waitFor();
    },
  },
  {
    name: 'admin: the audit log shows each action',
    needs: [
      'admin: deactivates a user, who then cannot sign in',
      'admin: enables and disables a bot',
      'admin: subscribes and unsubscribes webhooks for a linked user through the sandbox',
    ],
    run: async (state) => {
      const page = state.adminPage;
      state.lastPage = page;
      await page.goto('/admin/audit');
      await page.getByRole('heading', { name: 'Audit Logs' }).waitFor();
      await page.getByTestId('audit-row').first().waitFor();
      await waitForAuditActions(page, [
        'user.deactivated',
        'bot.disabled',
        'bot.enabled',
        'webhook.subscribed',
        'webhook.subscribed-batch',
        'webhook.subscribed-all',
        'webhook.unsubscribed',
        'webhook.unsubscribed-all',
      ]);
      const newest = await page.getByTestId('audit-row').first().getAttribute('data-action');
      check(newest === 'webhook.unsubscribed-all', `newest first (the first row is ${newest})`);
      await shot(state, page, 'admin-audit.png');

      await page.getByRole('combobox', { name: 'Action', exact: true }).selectOption('user.deactivated');
      // the rows of the previous answer stay until the filtered one arrives
      await page.waitForFunction(() => {
        const rows = [...document.querySelectorAll('[data-testid="audit-row"]')];
        return rows.length > 0 && rows.every((row) => row.dataset.action === 'user.deactivated');
      });
      const deactivation = page.getByTestId('audit-row').filter({ hasText: user3.username });
      check((await deactivation.count()) === 1, 'the deactivation names the user');

      await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Dashboard' }).click();
      await page.getByTestId('activity-item').filter({ hasText: 'All webhooks unsubscribed' }).first().waitFor();
      check((await page.getByTestId('activity-item').count()) <= 10, 'at most 10 recent activity items');
    },
  },
  {
    name: 'admin: analytics shows real command usage',
    needs: [
      'admin: the super admin signs in and lands on /admin/dashboard with real counts',
      'live chat: a viewer types $test and the bot replies',
    ],
    run: async (state) => {
      const page = state.adminPage;
      state.lastPage = page;
      await page.goto('/admin/analytics');
      await page.getByRole('heading', { name: 'Analytics' }).waitFor();
      const bars = page.getByTestId('usage-bar');
      // an idle day's bar has no height: attached, not visible
      await bars.first().waitFor({ state: 'attached' });
      check((await bars.count()) === 14, `14 days (${await bars.count()})`);
      const test = page.getByTestId('top-command').filter({ hasText: '$test' });
      await test.waitFor();
      const today = await bars.last().getAttribute('data-executions');
      check(Number(today) >= 1, `today has the $test execution (${today})`);
      await shot(state, page, 'admin-analytics.png');
    },
  },
  {
    name: 'admin: usable at 360 px with the slide-in menu',
    needs: ['admin: the super admin signs in and lands on /admin/dashboard with real counts'],
    run: async (state) => {
      const page = await newPage(state, { viewport: { width: 360, height: 740 } });
      await page.goto('/');
      await page.evaluate((token) => localStorage.setItem('token', token), state.adminToken);
      await page.goto('/admin');
      await page.waitForURL('**/admin/dashboard');
      await page.getByTestId('stat-total-users').waitFor();
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      check(await fits(), 'the admin dashboard has no sideways scroll at 360 px');
      const sections = page.getByRole('navigation', { name: 'Admin sections' });
      check(!(await sections.isVisible()), 'the sidebar is hidden until the menu opens');
      await page.getByRole('button', { name: 'Open menu' }).click();
      await sections.getByRole('link', { name: 'Users' }).click();
      await page.waitForURL('**/admin/users');
      await page.getByTestId('user-row').first().waitFor();
      check(await fits(), 'the users page has no sideways scroll at 360 px (the table scrolls in its box)');
      await shot(state, page, 'admin-users-360.png');
      await page.getByRole('button', { name: /^Profile menu for / }).click();
      await page.getByRole('menuitem', { name: 'Sign Out' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.context().close();
    },
  },
  {
    name: 'admin: a USER is refused',
    needs: ['register'],
    run: async (state) => {
      const login = await api(state, 'POST', '/api/platform/login', { email: user1.email, password: user1.password });
      check(login.status === 200, `API login (${login.status})`);
      const token = login.json.data.token;
      for (const url of ['/api/admin/users', '/api/admin/stats', '/api/admin/audit', '/api/admin/analytics']) {
        const answer = await api(state, 'GET', url, undefined, token);
        check(answer.status === 403, `${url} answers 403 to a USER (${answer.status})`);
      }
      const page = await newPage(state);
      await page.goto('/');
      await page.evaluate((value) => localStorage.setItem('token', value), token);
      await page.goto('/admin/users');
      await page.getByRole('heading', { name: 'No access' }).waitFor();
      await page.getByText('You do not have access to the admin panel.').waitFor();
      check((await page.getByTestId('user-row').count()) === 0, 'no user is listed');
      check((await page.getByRole('navigation', { name: 'Admin sections' }).count()) === 0, 'no admin sidebar');
      await shot(state, page, 'admin-refused.png');
      await page.context().close();
    },
  },
  {
    // issue 19: a command edited in place (renamed, an alias, who may run it, a per-viewer
    // cooldown) and switched off and on; a streamer of its own, so it needs no other scenario
    name: 'command settings: edit a command, switch it off and on',
    run: async (state) => {
      const streamer = { email: `settings-${run}@example.com`, username: `settings_${run}`, password: 'Str0ng!pass' };
      const registered = await api(state, 'POST', '/api/platform/register', streamer);
      check(registered.status === 201, `streamer registered (${registered.status})`);
      const login = await api(state, 'POST', '/api/platform/login', {
        email: streamer.email,
        password: streamer.password,
      });
      check(login.status === 200, `API login (${login.status})`);
      const token = login.json.data.token;
      const page = await newPage(state);
      await page.goto('/');
      await page.evaluate((value) => {
        localStorage.setItem('token', value);
        localStorage.setItem('welcomeModalDismissed', 'true');
      }, token);
      await page.goto('/dashboard');
      await waitForDashboard(page);
      await page.getByRole('tab', { name: 'Commands' }).click();
      await page.getByRole('button', { name: 'Add Command' }).click();
      await page.getByLabel('Command name').fill('disc');
      await page.getByLabel('Response').fill('Join us on Discord');
      await page.getByRole('button', { name: 'Save Command' }).click();
      await toast(page, 'Command "disc" added successfully!').waitFor();

      await page.getByRole('button', { name: 'Edit $disc' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit $disc' });
      await dialog.getByLabel('Command name').fill('discord');
      await dialog.getByLabel('Aliases').fill('dc');
      await dialog.getByLabel('Who can use it').selectOption('subscribers');
      await dialog.getByLabel('Per-viewer cooldown (seconds)').fill('30');
      await shot(state, page, 'command-edit.png');
      await dialog.getByRole('button', { name: 'Save Changes' }).click();
      await toast(page, 'Command "discord" updated successfully!').waitFor();
      await dialog.waitFor({ state: 'detached' });
      const item = page.getByTestId('command-discord');
      await item.getByText('Subscribers · cooldown 1 s · per viewer 30 s · mods exempt').waitFor();
      await item.getByText('$dc').waitFor();

      const toggle = page.getByRole('switch', { name: 'Enabled $discord' });
      check(await toggle.isChecked(), 'a command starts enabled');
      await toggle.click();
      await toast(page, 'Command "discord" disabled: it stays listed and does not answer.').waitFor();
      await item.getByText('Disabled', { exact: true }).waitFor();
      check(!(await toggle.isChecked()), 'the switch is off');
      await shot(state, page, 'command-disabled.png');
      const listed = await api(state, 'GET', '/api/commands', undefined, token);
      check(
        listed.json.data.length === 2 &&
          listed.json.data.some((command) => command.command === 'discord' && !command.enabled),
        `the disabled command stays listed: ${JSON.stringify(listed.json.data)}`,
      );
      await toggle.click();
      await toast(page, 'Command "discord" enabled.').waitFor();
      await item.getByText('Disabled', { exact: true }).waitFor({ state: 'detached' });
      check(await toggle.isChecked(), 'the switch is on again');
      await page.context().close();
    },
  },
];

/**
 * The second pass, against a product started with KICK_SANDBOX_REAL_KICK=1 (a fresh DATA_DIR): the
 * streamer's journey again while the sandbox behaves like real Kick (`type: "bot"` refused with
 * 500, drifted payloads). The viewer types in the sandbox's chat page.
 */
const realKickUser = { email: `real-${run}@example.com`, username: `real_${run}`, password: 'Str0ng!pass' };

export const realKickScenarios = [
  {
    name: 'the sandbox behaves like real Kick',
    run: async (state) => {
      const response = await fetch(`${state.sandboxUrl}/sandbox/api/real-kick`);
      const settings = (await response.json()).data;
      check(settings.botChat === 'server-error', `type "bot" is refused (${settings.botChat})`);
      check(settings.driftNullObjects > 0 && settings.driftNullIdentity > 0, 'payloads drift');
    },
  },
  ...streamerJourney({
    user: realKickUser,
    viewer: 'viewer_bob',
    typeInSandboxPage: true,
    sender: { name: 'sandbox_streamer', isFallback: true, healthLabel: 'Streamer account' },
  }),
];
