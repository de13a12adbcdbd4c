/* global fetch, localStorage, document, window, URL */
// The end-to-end scenarios, in order; `needs` names scenarios that must have passed first.
// Each gets the shared state: { baseUrl, sandboxUrl, artifacts, browser, consoleErrors, … }.
import path from 'node:path';

const timeout = 20_000;
const botReply = 'Hello! This is a test command. The bot is working correctly!';
const run = `${Date.now().toString(36)}`;
const user1 = { email: `streamer-${run}@example.com`, username: `streamer_${run}`, password: 'Str0ng!pass' };
const user2 = { email: `second-${run}@example.com`, username: `second_${run}`, password: 'Str0ng!pass' };

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
  {
    name: 'register',
    run: async (state) => {
      const page = await newPage(state);
      const dialog = await registerThroughUi(page, user1);
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
      await loginThroughUi(page, user1, { isModalOpen: true });
      await waitForDashboard(page);
      const welcome = page.getByRole('dialog', { name: 'Welcome to Kickstand!' });
      await welcome.waitFor();
      await shot(state, page, 'welcome-modal.png');
      check(
        (await page.getByTestId('dashboard-username').textContent()) === user1.username,
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
      const sent = await fetch(`${state.sandboxUrl}/sandbox/api/events/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ broadcaster: 'sandbox_streamer', sender: 'viewer_alice', content: '$test' }),
      });
      check(sent.status === 201 || sent.status === 200, `the sandbox took the chat line (${sent.status})`);
      const lines = page.getByTestId('chat-line');
      await lines.filter({ hasText: 'viewer_alice' }).filter({ hasText: '$test' }).first().waitFor();
      const reply = lines.filter({ hasText: botReply });
      await reply.first().waitFor();
      const replyText = await reply.first().textContent();
      check(replyText.includes('Replying to @viewer_alice'), `the reply has its Replying to line: ${replyText}`);
      check(replyText.includes('@Kickstand'), 'the reply is from @Kickstand');
      await page.waitForTimeout(2000);
      check((await reply.count()) === 1, `the bot reply shows once (found ${await reply.count()})`);
      await shot(state, page, 'dashboard-chat.png');
    },
  },
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
      await page.evaluate(() => localStorage.setItem('token', 'corrupted.token.value'));
      await page.getByRole('tab', { name: 'Commands' }).click();
      await page.getByRole('button', { name: 'Add Command' }).click();
      await page.getByLabel('Command name').fill('expired');
      await page.getByLabel('Response').fill('never saved');
      await page.getByRole('button', { name: 'Save Command' }).click();
      await toast(page, 'Your session has expired. Please log in again.').waitFor();
      await page.waitForURL((url) => url.pathname === '/');
      check((await page.evaluate(() => localStorage.getItem('token'))) === null, 'the token is removed');
      await shot(state, page, 'session-expired.png');
      await page.context().close();
    },
  },
];
