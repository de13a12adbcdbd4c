// Issue 20 items 1 and 2 in Chromium: a streamer edits an event message and switches the go-live
// message on (Commands tab → Event messages); through the sandbox, with every follow and
// subscription delivered twice, a burst of 20 follows gives one line, a sub one line, and going
// live one message, an anonymous gift of 5 one line, 100 Kicks one line, the end one message, each
// once; the live card shows the stream.
// Self-contained (its own user and Kick channel): `E2E_ONLY=event messages: npm run test:e2e`.
import { api, check, linkKickAndStartBot, signedInStreamerPage } from './streamer-session.mjs';

const run = Date.now().toString(36);
const streamer = { email: `events-${run}@example.com`, username: `events_${run}`, password: 'Str0ng!pass' };
const kickName = `evk_${run}`;

const sandbox = (state, route, body) => api(state, 'POST', `${state.sandboxUrl}/sandbox/api/events/${route}`, body);

export const eventMessageScenarios = [
  {
    name: 'event messages: a follow raid is one line, a sub one line, going live one message, each once',
    run: async (state) => {
      const page = await signedInStreamerPage(state, streamer);

      await linkKickAndStartBot(state, page, kickName);

      // the messages, under the Commands tab
      await page.getByRole('tab', { name: 'Commands' }).click();
      await page.getByRole('heading', { name: 'Event messages' }).waitFor();
      await page.getByText('Offline', { exact: true }).first().waitFor();
      await page.getByLabel('New subscription', { exact: true }).fill(`Welcome aboard, {user}! ${run}`);
      await page.getByRole('button', { name: 'Save new subscription message' }).click();
      await page.getByText('New subscription message saved.').waitFor();
      // an unknown variable is refused with the reason
      await page.getByLabel('Follow', { exact: true }).fill('Thanks {user} for {amount}');
      await page.getByRole('button', { name: 'Save follow message' }).click();
      await page.getByText('The follow message cannot use {amount}; it can use {user}.').waitFor();
      await page.getByLabel('Go-live', { exact: true }).fill(`Live now: {title} ${run}`);
      await page.getByRole('button', { name: 'Save go-live message' }).click();
      await page.getByText('Go-live message saved.').waitFor();
      // the switch shows On once the saved setting came back
      await page.getByRole('checkbox', { name: 'Go-live message on' }).click();
      await page.getByRole('checkbox', { name: 'Go-live message on', checked: true }).waitFor();
      for (const name of ['Kicks gifted message on', 'Offline message on']) {
        await page.getByRole('checkbox', { name }).click();
        await page.getByRole('checkbox', { name, checked: true }).waitFor();
      }
      await page.screenshot({ path: `${state.artifacts}/dashboard-event-messages.png`, fullPage: true });

      // every follow and subscription is delivered twice (Kick's duplicates: the same message id)
      const faults = await api(state, 'PATCH', `${state.sandboxUrl}/sandbox/api/faults`, {
        duplicate: 1,
        onlyEventTypes: [
          'channel.followed',
          'channel.subscription.new',
          'channel.subscription.gifts',
          'kicks.gifted',
          'livestream.status.updated',
        ],
      });
      check(faults.status === 200, `duplicates switched on (${faults.status})`);
      try {
        for (let i = 0; i < 20; i += 1) {
          const followed = await sandbox(state, 'follow', { broadcaster: kickName, follower: `raider_${run}_${i}` });
          check(followed.status === 201, `follow ${i} (${followed.status})`);
        }
        const subscribed = await sandbox(state, 'subscription-new', {
          broadcaster: kickName,
          subscriber: `sub_${run}`,
        });
        check(subscribed.status === 201, `subscribed (${subscribed.status})`);
        const giftees = Array.from({ length: 5 }, (_, i) => `g_${run}_${i}`);
        const gifted = await sandbox(state, 'subscription-gifts', {
          broadcaster: kickName,
          isAnonymous: true,
          giftees,
        });
        check(gifted.status === 201, `5 subs gifted (${gifted.status})`);
        const kicks = await sandbox(state, 'kicks-gifted', {
          broadcaster: kickName,
          sender: `kicker_${run}`,
          amount: 100,
        });
        check(kicks.status === 201, `Kicks gifted (${kicks.status})`);
        const live = await sandbox(state, 'stream-start', { broadcaster: kickName, title: `events ${run}` });
        check(live.status === 201, `the stream started (${live.status})`);

        await page.getByRole('tab', { name: 'Live Chat' }).click();
        const lines = page.getByTestId('chat-line');
        await lines.filter({ hasText: 'Thanks to 20 new followers!' }).first().waitFor({ timeout: 30_000 });
        await lines
          .filter({ hasText: `Welcome aboard, sub_${run}! ${run}` })
          .first()
          .waitFor({ timeout: 30_000 });
        await lines
          .filter({ hasText: `Live now: events ${run} ${run}` })
          .first()
          .waitFor({ timeout: 30_000 });
        await lines.filter({ hasText: 'Thanks Anonymous for gifting 5 subs!' }).first().waitFor({ timeout: 30_000 });
        await lines
          .filter({ hasText: `Thanks kicker_${run} for 100 Kicks!` })
          .first()
          .waitFor({ timeout: 30_000 });
        const ended = await sandbox(state, 'stream-end', { broadcaster: kickName });
        check(ended.status === 201, `the stream ended (${ended.status})`);
        const offline = 'The stream is over. Thanks for watching!';
        await lines.filter({ hasText: offline }).first().waitFor({ timeout: 30_000 });
        // a second window passes: nothing is said twice
        await page.waitForTimeout(7000);
        for (const text of [
          'Thanks to 20 new followers!',
          `Welcome aboard, sub_${run}!`,
          'Thanks Anonymous for gifting 5 subs!',
          `Thanks kicker_${run} for 100 Kicks!`,
          `Live now: events ${run}`,
          offline,
        ]) {
          const count = await lines.filter({ hasText: text }).count();
          check(count === 1, `"${text}" said once (found ${count})`);
        }
        const followLines = await lines.filter({ hasText: 'Thanks for the follow' }).count();
        check(followLines === 0, `no follow thanked alone (found ${followLines})`);
        await page.screenshot({ path: `${state.artifacts}/dashboard-event-message-lines.png`, fullPage: true });

        // the live card (polled) shows the stream: ended, with its last title
        await page.getByRole('tab', { name: 'Commands' }).click();
        await page.getByText(`events ${run}`, { exact: true }).waitFor({ timeout: 30_000 });
        await page
          .locator('.stream-badge')
          .filter({ hasText: /^Offline$/ })
          .waitFor();
      } finally {
        await api(state, 'DELETE', `${state.sandboxUrl}/sandbox/api/faults`);
      }
      await page.context().close();
    },
  },
];
