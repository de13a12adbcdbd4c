/* global fetch, localStorage, setTimeout */
// Issue 20 item 4 in Chromium: a streamer invites an editor on the Team page; the editor picks the
// streamer's channel and adds a command to it from the dashboard; the editor cannot unlink the
// streamer's Kick account; once removed, the editor's next request for that channel is refused.
// Self-contained (its own two users): `E2E_ONLY=team: npm run test:e2e`.

const timeout = 20_000;
const run = Date.now().toString(36);
const owner = { email: `owner-${run}@example.com`, username: `owner_${run}`, password: 'Str0ng!pass' };
const editor = { email: `editor-${run}@example.com`, username: `editor_${run}`, password: 'Str0ng!pass' };

function check(condition, message) {
  if (!condition) throw new Error(message);
}

async function api(state, method, url, { token, channel, body } = {}) {
  const response = await fetch(`${state.baseUrl}${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(channel ? { 'x-kickstand-channel': channel } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => undefined) };
}

async function signedInPage(state, account) {
  const registered = await api(state, 'POST', '/api/platform/register', { body: account });
  check(registered.status === 201, `registered ${account.username} (${registered.status})`);
  const context = await state.browser.newContext({ baseURL: state.baseUrl, viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  page.setDefaultTimeout(timeout);
  await page.goto('/');
  await page.evaluate((token) => localStorage.setItem('token', token), registered.json.data.token);
  return { page, token: registered.json.data.token, id: registered.json.data.user.id };
}

/** New users meet the welcome modal on their first dashboard visit: put it away. */
async function openDashboard(page) {
  await page.goto('/dashboard');
  const later = page.getByRole('button', { name: 'Maybe Later' });
  await later.waitFor({ timeout: 5_000 }).then(
    () => later.click(),
    () => undefined,
  );
}

export const teamScenarios = [
  {
    name: 'team: an editor adds a command to the owner’s channel, cannot unlink it, and loses access when removed',
    run: async (state) => {
      const streamer = await signedInPage(state, owner);
      const helper = await signedInPage(state, editor);

      // the owner invites the editor on the Team page
      state.lastPage = streamer.page;
      await openDashboard(streamer.page);
      await streamer.page.getByRole('link', { name: 'Team' }).click();
      await streamer.page.getByLabel('Editor’s e-mail').fill(editor.email);
      await streamer.page.getByRole('button', { name: 'Invite Editor' }).click();
      await streamer.page.getByRole('button', { name: `Remove ${editor.username}` }).waitFor();

      // the editor picks the owner's channel and adds a command from the dashboard
      state.lastPage = helper.page;
      await helper.page.goto('/dashboard/team');
      await helper.page
        .getByLabel('Dashboard commands, timers and counters of')
        .selectOption({ label: owner.username });
      await openDashboard(helper.page);
      await helper.page.getByText(`Editing ${owner.username}’s commands`, { exact: false }).waitFor();
      await helper.page.getByRole('tab', { name: 'Commands' }).click();
      await helper.page.getByRole('button', { name: 'Add Command' }).click();
      await helper.page.getByLabel('Command name').fill('teamhello');
      await helper.page.getByLabel('Response').fill('Hi from the team');
      await helper.page.getByRole('button', { name: 'Save Command' }).click();
      await helper.page.getByText('$teamhello', { exact: true }).waitFor();

      const ownerCommands = await api(state, 'GET', '/api/commands', { token: streamer.token });
      check(
        ownerCommands.json.data.some((command) => command.command === 'teamhello'),
        'the command is in the owner’s channel',
      );
      const editorOwn = await api(state, 'GET', '/api/commands', { token: helper.token });
      check(!editorOwn.json.data.some((command) => command.command === 'teamhello'), 'not in the editor’s own');

      const unlink = await api(state, 'DELETE', '/api/platform/kick/unlink', {
        token: helper.token,
        channel: streamer.id,
      });
      check(unlink.status === 403, `the editor cannot unlink (${unlink.status})`);

      // the owner removes the editor: the editor's next request for the channel is refused
      state.lastPage = streamer.page;
      await streamer.page.getByRole('button', { name: `Remove ${editor.username}` }).click();
      await streamer.page.getByText('No editors yet.').waitFor();
      let refused;
      for (let attempt = 0; attempt < 20; attempt += 1) {
        refused = await api(state, 'GET', '/api/commands', { token: helper.token, channel: streamer.id });
        if (refused.status === 403) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      check(refused.status === 403, `a removed editor is refused (${refused.status})`);
    },
  },
];
