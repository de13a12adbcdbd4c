/* global fetch, localStorage */
// What the self-contained scenarios (timers, event messages, moderation) share: a call to the
// product or the sandbox, and a new streamer signed in on its own page, its sandbox channel linked
// and its bot connected to chat.

export const timeout = 20_000;

export function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** A JSON call to the product (a path) or the sandbox (a whole URL); answers the status and the body. */
export async function api(state, method, url, body) {
  const response = await fetch(url.startsWith('http') ? url : `${state.baseUrl}${url}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => undefined) };
}

/**
 * The session ends as `button` is pressed: the token goes bad and the button is clicked in one task
 * of the page. Any request the page sent between the two (a lazy section's list, the stream poll
 * every 15 s) would meet the bad token first and cover the button with "Sign in again"; requests
 * after the click may 401 as well, which the page must handle the same way.
 */
export async function expireSessionAndPress(page, button) {
  await button.waitFor();
  await page.waitForLoadState('networkidle');
  await button.evaluate((element) => {
    localStorage.setItem('token', 'corrupted.token.value');
    element.click();
  });
}

/** Registers `streamer` and opens the dashboard signed in as them in a page of its own. */
export async function signedInStreamerPage(state, streamer, viewport = { width: 1280, height: 860 }) {
  const registered = await api(state, 'POST', '/api/platform/register', streamer);
  check(registered.status === 201, `registered (${registered.status})`);
  const login = await api(state, 'POST', '/api/platform/login', { email: streamer.email, password: streamer.password });
  check(login.status === 200, `signed in (${login.status})`);
  const context = await state.browser.newContext({ baseURL: state.baseUrl, viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  state.lastPage = page;
  await page.goto('/');
  await page.evaluate((token) => localStorage.setItem('token', token), login.json.data.token);
  await page.goto('/dashboard');
  await page.getByTestId('dashboard-username').waitFor({ timeout: 30_000 });
  return page;
}

/** Kick (the sandbox) approves the link as `kickName` and sends the browser back to the dashboard. */
export async function approveAtKick(state, page, kickName) {
  await page.waitForURL(`${state.sandboxUrl}/**`);
  await page.locator('#new_username').fill(kickName);
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.waitForURL(`${state.baseUrl}/dashboard**`);
}

/** From the welcome dialog: links the sandbox channel `kickName`, starts the bot, waits until it is in chat. */
export async function linkKickAndStartBot(state, page, kickName) {
  await page
    .getByRole('dialog', { name: 'Welcome to Kickstand!' })
    .getByRole('button', { name: 'Link Kick Account' })
    .click();
  await approveAtKick(state, page, kickName);
  await page.getByTestId('dashboard-username').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Start Bot' }).click();
  await page
    .getByTestId('bot-connection')
    .filter({ hasText: /^Connected to chat/ })
    .waitFor();
}
