import type { Response } from 'express';
import type { RealKickSettings } from '../real-kick';
import type { KickUserDoc } from '../repository';
import { html, sendPage, type SafeHtml } from './html';

// Runs in the browser: every control sends its own PATCH, so one change is one request.
const realKickScript = `
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const response = await fetch('/sandbox/api' + path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (!json.success) throw new Error((json.error || 'request failed') + (json.details ? ': ' + json.details.map((d) => d.path + ' ' + d.message).join(', ') : ''));
  return json.data;
}

function status(text, isError) {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : 'muted';
}

function show(settings) {
  for (const [key, value] of Object.entries(settings)) {
    const input = $('setting-' + key);
    if (input) input.value = value === null ? '' : String(value);
  }
}

function valueOf(input) {
  if (input.dataset.kind === 'enum') return input.value;
  if (input.value.trim() === '' && input.dataset.kind === 'nullable') return null;
  return Number(input.value);
}

for (const input of document.querySelectorAll('[data-setting]')) {
  input.addEventListener('change', async () => {
    try {
      show(await api('PATCH', '/real-kick', { [input.dataset.setting]: valueOf(input) }));
      status(input.dataset.setting + ' saved.', false);
    } catch (error) {
      status(error.message, true);
    }
  });
}

$('preset').addEventListener('click', async () => {
  try { show(await api('POST', '/real-kick/preset')); status('Real Kick preset on.', false); }
  catch (error) { status(error.message, true); }
});
$('documented').addEventListener('click', async () => {
  try { show(await api('DELETE', '/real-kick')); status('Back to the documented behaviour.', false); }
  catch (error) { status(error.message, true); }
});
$('drop').addEventListener('click', async () => {
  const channel = $('drop-channel').value;
  try {
    const data = await api('POST', '/subscriptions/drop', channel ? { broadcasterUserId: Number(channel) } : {});
    status(data.count + ' subscription(s) dropped without notice.', false);
  } catch (error) { status(error.message, true); }
});
`;

interface SettingRow {
  key: keyof RealKickSettings;
  label: string;
  /** enum: a select; rate: 0–1; count: an integer; nullable: an integer or empty for none. */
  kind: 'enum' | 'rate' | 'count' | 'nullable';
  choices?: readonly string[];
}

const settingRows: readonly SettingRow[] = [
  {
    key: 'botChat',
    label: 'POST /chat with type "bot"',
    kind: 'enum',
    choices: ['off', 'server-error', 'channel-not-found'],
  },
  { key: 'chatRateLimitNext', label: 'next N POST /chat answer 429', kind: 'count' },
  { key: 'chatRateLimitRate', label: 'POST /chat answers 429 (rate 0–1)', kind: 'rate' },
  { key: 'chatNotSentNext', label: 'next N POST /chat answer is_sent: false', kind: 'count' },
  { key: 'chatNotSentRate', label: 'POST /chat answers is_sent: false (rate 0–1)', kind: 'rate' },
  {
    key: 'replyTargets',
    label: 'reply_to_message_id',
    kind: 'enum',
    choices: ['documented', 'refused'],
  },
  { key: 'driftNullObjects', label: 'drift: category, emotes, replies_to, badges arrive null', kind: 'rate' },
  { key: 'driftNullIdentity', label: "drift: the chat sender's identity arrives null", kind: 'rate' },
  { key: 'driftUnknownFields', label: 'drift: unknown fields added', kind: 'rate' },
  { key: 'driftMissingOptional', label: 'drift: created_at / expires_at / ended_at missing', kind: 'rate' },
  { key: 'driftIdsAsStrings', label: 'drift: user_id and id as strings', kind: 'rate' },
  { key: 'driftUnknownEvents', label: 'drift: an extra delivery of an unknown event type', kind: 'rate' },
  { key: 'driftUnknownVersions', label: 'drift: an extra delivery with Kick-Event-Version 2', kind: 'rate' },
  {
    key: 'dropSubscriptionsAfterDeliveries',
    label: 'drop a subscription silently after N deliveries (empty: never)',
    kind: 'nullable',
  },
  { key: 'seed', label: 'seed of the rates', kind: 'count' },
];

function control(row: SettingRow, value: RealKickSettings[keyof RealKickSettings]): SafeHtml {
  const id = `setting-${row.key}`;
  if (row.kind === 'enum') {
    const options = (row.choices ?? []).map((choice) =>
      choice === value
        ? html`<option value="${choice}" selected>${choice}</option>`
        : html`<option value="${choice}">${choice}</option>`,
    );
    return html`<select id="${id}" data-setting="${row.key}" data-kind="enum">
      ${options}
    </select>`;
  }
  const step = row.kind === 'rate' ? '0.01' : '1';
  const max = row.kind === 'rate' ? '1' : '1000000';
  return html`<input
    type="number"
    id="${id}"
    data-setting="${row.key}"
    data-kind="${row.kind}"
    min="0"
    max="${max}"
    step="${step}"
    value="${value === null ? '' : String(value)}"
  />`;
}

/** `GET /sandbox/real-kick`: see and switch real Kick's undocumented behaviour. */
export function sendRealKickPage(
  res: Response,
  input: { settings: RealKickSettings; users: readonly KickUserDoc[] },
): void {
  const { settings, users } = input;
  const rows = settingRows.map(
    (row) =>
      html`<tr>
        <td><label for="setting-${row.key}">${row.label}</label><code>${row.key}</code></td>
        <td>${control(row, settings[row.key])}</td>
      </tr>`,
  );
  const channels = users.map((user) => html`<option value="${user.userId}">${user.username}</option>`);
  const body = html` <h1>Kick sandbox — real Kick</h1>
    <p class="muted">
      <a href="/">Sandbox home</a> · <a href="/sandbox">Chat page</a> · By default the sandbox follows kick-api.md to
      the letter. These switches make it behave like the live service (kick-api.md §5.1, §8.10). Each change applies at
      once (<code>PATCH /sandbox/api/real-kick</code>).
    </p>
    <div class="card">
      <button class="primary" id="preset" type="button">Real Kick preset</button>
      <button class="secondary" id="documented" type="button">Documented behaviour (default)</button>
      <p id="status" class="muted"></p>
      <table>
        ${rows}
      </table>
    </div>
    <div class="card">
      <h2>Drop subscriptions without notice</h2>
      <div class="row">
        <select id="drop-channel">
          <option value="">every channel</option>
          ${channels}
        </select>
        <button class="secondary" id="drop" type="button" style="flex:0">Drop</button>
      </div>
    </div>`;
  sendPage(res, { title: 'Real Kick — Kick sandbox', body, script: realKickScript });
}
