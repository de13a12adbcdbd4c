// Issue 20 item 3 in Chromium: a streamer switches the link filter on (first granting Kick's
// moderation scopes through the "Grant moderation access" button); a viewer's link is deleted at
// the sandbox and shows in the moderation log, `$permit` from a moderator lets one link through,
// and a moderator's own link stays. Self-contained (its own user and Kick channel):
// `E2E_ONLY=moderation: npm run test:e2e`.
import { api, approveAtKick, check, linkKickAndStartBot, signedInStreamerPage } from './streamer-session.mjs';

const run = Date.now().toString(36);
const streamer = { email: `mod-${run}@example.com`, username: `mod_${run}`, password: 'Str0ng!pass' };
const kickName = `mdk_${run}`;
const viewer = `viewer_${run}`;
const moderator = `moder_${run}`;

async function say(state, sender, content, badges) {
  const sent = await api(state, 'POST', `${state.sandboxUrl}/sandbox/api/events/chat`, {
    broadcaster: kickName,
    sender,
    content,
    ...(badges ? { badges } : {}),
  });
  check(sent.status === 201, `the sandbox took "${content}" (${sent.status})`);
  return sent.json.data.message.messageId;
}

export const moderationScenarios = [
  {
    name: 'moderation: a viewer’s link is deleted and logged, $permit lets one through, a moderator’s link stays',
    run: async (state) => {
      const page = await signedInStreamerPage(state, streamer, { width: 1280, height: 900 });

      // link (without moderation scopes: they are asked only when a filter is switched on) and start
      await linkKickAndStartBot(state, page, kickName);

      // the Moderation page: switching the link filter on is refused until moderation access is granted
      await page.getByRole('link', { name: 'Moderation' }).click();
      const links = page.locator('fieldset[data-filter="links"]');
      await links.getByLabel('On', { exact: true }).check();
      await page.getByRole('button', { name: 'Save Filters' }).click();
      const grant = page.getByRole('button', { name: 'Grant moderation access' });
      await grant.waitFor();
      await page.screenshot({ path: `${state.artifacts}/moderation-grant.png`, fullPage: true });
      await grant.click();
      await approveAtKick(state, page, kickName);
      await page.goto('/dashboard/moderation');
      await page.getByRole('heading', { name: 'Filters' }).waitFor();
      check((await grant.count()) === 0, 'no grant button once Kick granted moderation');
      await links.getByLabel('On', { exact: true }).check();
      await links.getByLabel('Allowed domains').fill('kick.com');
      await page.getByRole('button', { name: 'Save Filters' }).click();
      await page.getByText('Moderation filters saved.').waitFor();

      // a moderator's link stays; $permit lets the viewer's next link through; the one after is deleted
      await say(state, moderator, 'my site: mod.example.org', ['moderator']);
      await say(state, viewer, 'clips at https://kick.com/some_clip');
      await page.waitForTimeout(1500);
      await say(state, moderator, `$permit @${viewer}`, ['moderator']);
      await page.waitForTimeout(1500);
      await say(state, viewer, 'permitted.example.net');
      await page.waitForTimeout(1500);
      const deletedId = await say(state, viewer, 'visit spam.example.net now');

      const row = page.locator('.moderation-log-table tbody tr').filter({ hasText: 'visit spam.example.net now' });
      await row.filter({ hasText: 'Deleted (done)' }).waitFor({ timeout: 30_000 });
      const rows = await page.locator('.moderation-log-table tbody tr').allInnerTexts();
      check(rows.length === 1, `only the unpermitted viewer link is in the log (found ${JSON.stringify(rows)})`);

      const atKick = await api(
        state,
        'GET',
        `${state.sandboxUrl}/sandbox/api/chat?broadcasterUserId=${await kickId(state)}`,
      );
      const lines = atKick.json.data;
      const deletedAt = (content) => lines.find((line) => line.content === content)?.deletedAt ?? null;
      check(lines.find((line) => line.messageId === deletedId)?.deletedAt, 'the viewer link is deleted at Kick');
      check(deletedAt('permitted.example.net') === null, 'the permitted link stays');
      check(deletedAt('my site: mod.example.org') === null, 'the moderator link stays');
      await page.screenshot({ path: `${state.artifacts}/moderation-log.png`, fullPage: true });
      await page.context().close();
    },
  },
];

async function kickId(state) {
  const user = await api(state, 'GET', `${state.sandboxUrl}/sandbox/api/users/${kickName}`);
  return user.json.data.userId;
}
