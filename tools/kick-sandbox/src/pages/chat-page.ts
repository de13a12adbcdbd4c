import type { Response } from 'express';
import type { KickUserDoc } from '../repository';
import { html, sendPage } from './html';

// Runs in the browser. It builds the log with textContent only, so chat text can never become markup.
const chatScript = `
const $ = (id) => document.getElementById(id);
let channelId = Number($('channel').value);
let lastSeq = 0;
let lastDeliverySeq = 0;
let replyTo = null;

async function api(method, path, body) {
  const response = await fetch('/sandbox/api' + path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await response.json();
  if (!json.success) throw new Error(json.error || 'request failed');
  return json.data;
}

function status(text, isError) {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : 'muted';
}

function addLine(message) {
  const line = document.createElement('div');
  line.className = 'line' + (message.deletedAt ? ' deleted' : '');
  line.title = 'Click to reply';
  if (message.replyTo) {
    const reply = document.createElement('div');
    reply.className = 'reply';
    reply.textContent = '↳ replying to ' + message.replyTo.senderUsername + ': ' + message.replyTo.content;
    line.appendChild(reply);
  }
  for (const badge of message.badges) {
    const b = document.createElement('span');
    b.className = 'badge';
    b.textContent = badge.text + (badge.count ? ' ' + badge.count : '');
    line.appendChild(b);
  }
  const name = document.createElement('strong');
  name.style.color = message.usernameColor;
  name.textContent = message.senderUsername;
  line.appendChild(name);
  const via = message.type === 'viewer' ? '' : ' [sent by the app as ' + message.type + ']';
  line.appendChild(document.createTextNode(via + ': ' + message.content));
  line.addEventListener('click', () => {
    replyTo = message;
    $('replying').textContent = 'Replying to ' + message.senderUsername + ' — ' + message.content.slice(0, 60);
    $('cancel-reply').hidden = false;
  });
  const log = $('log');
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 20;
  log.appendChild(line);
  if (atBottom) log.scrollTop = log.scrollHeight;
}

function addDelivery(delivery) {
  const last = delivery.attempts[delivery.attempts.length - 1];
  const row = document.createElement('div');
  row.className = 'muted';
  row.textContent = delivery.eventType + ' → ' + delivery.state + (last ? ' (' + (last.status ?? last.error) + ')' : '') +
    (delivery.faults.length ? ' faults: ' + delivery.faults.join(', ') : '');
  $('deliveries').prepend(row);
  while ($('deliveries').childElementCount > 8) $('deliveries').lastChild.remove();
}

async function poll() {
  try {
    const messages = await api('GET', '/chat?broadcasterUserId=' + channelId + (lastSeq ? '&afterSeq=' + lastSeq : '&limit=100'));
    for (const message of messages) { addLine(message); lastSeq = Math.max(lastSeq, message.seq); }
    const deliveries = await api('GET', '/deliveries?broadcasterUserId=' + channelId + (lastDeliverySeq ? '&afterSeq=' + lastDeliverySeq : '&limit=5'));
    for (const delivery of deliveries) { addDelivery(delivery); lastDeliverySeq = Math.max(lastDeliverySeq, delivery.seq); }
  } catch (error) {
    status('Could not load the chat: ' + error.message, true);
  }
}

$('channel').addEventListener('change', () => {
  channelId = Number($('channel').value);
  lastSeq = 0; lastDeliverySeq = 0; replyTo = null;
  $('log').textContent = ''; $('deliveries').textContent = ''; $('replying').textContent = '';
  poll();
});

$('cancel-reply').addEventListener('click', () => { replyTo = null; $('replying').textContent = ''; $('cancel-reply').hidden = true; });

$('send-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const badges = [...document.querySelectorAll('input[name=badge]:checked')].map((box) =>
    box.value === 'subscriber' ? { type: 'subscriber', count: Number($('months').value) || 1 } : box.value);
  try {
    await api('POST', '/events/chat', {
      broadcaster: channelId,
      sender: $('viewer').value.trim(),
      content: $('content').value,
      badges,
      usernameColor: $('color').value.toUpperCase(),
      ...(replyTo ? { replyToMessageId: replyTo.messageId } : {}),
    });
    $('content').value = '';
    replyTo = null; $('replying').textContent = ''; $('cancel-reply').hidden = true;
    status('Sent.', false);
    poll();
  } catch (error) {
    status(error.message, true);
  }
});

const actions = {
  follow: () => api('POST', '/events/follow', { broadcaster: channelId, follower: $('viewer').value.trim() }),
  subscribe: () => api('POST', '/events/subscription-new', { broadcaster: channelId, subscriber: $('viewer').value.trim() }),
  gift: () => api('POST', '/events/subscription-gifts', { broadcaster: channelId, isAnonymous: true, giftees: [$('viewer').value.trim()] }),
  live: () => api('POST', '/events/stream-start', { broadcaster: channelId }),
  end: () => api('POST', '/events/stream-end', { broadcaster: channelId }),
};
for (const [name, run] of Object.entries(actions)) {
  $('action-' + name).addEventListener('click', async () => {
    try { const data = await run(); status(name + ': ' + data.deliveries.length + ' delivery(ies) queued.', false); poll(); }
    catch (error) { status(error.message, true); }
  });
}

poll();
setInterval(poll, 1000);
`;

/** `GET /sandbox`: type as a viewer in any channel and watch that channel's chat, the bot's answers included. */
export function sendChatPage(
  res: Response,
  input: { users: readonly KickUserDoc[]; channelUserId: number | undefined },
) {
  const { users, channelUserId } = input;
  const selected = channelUserId ?? users[0]?.userId;
  const channelOptions = users.map((user) =>
    user.userId === selected
      ? html`<option value="${user.userId}" selected>${user.username}${user.channel.isLive ? ' (live)' : ''}</option>`
      : html`<option value="${user.userId}">${user.username}${user.channel.isLive ? ' (live)' : ''}</option>`,
  );
  const badgeBoxes = ['broadcaster', 'moderator', 'subscriber', 'vip', 'og'].map(
    (type) =>
      html`<label style="display:inline-flex;gap:4px;margin-right:12px"
        ><input type="checkbox" name="badge" value="${type}" />${type}</label
      >`,
  );
  const body = html` <h1>Kick sandbox — chat</h1>
    <p class="muted">
      <a href="/">Sandbox home</a> · <a href="/sandbox/real-kick">Real Kick switches</a> · Messages typed here reach the
      app as signed <code>chat.message.sent</code> webhooks, exactly as Kick sends them. Click a line to reply to it.
    </p>
    <div class="card">
      <div class="row">
        <div>
          <label for="channel">Channel (broadcaster)</label
          ><select id="channel">
            ${channelOptions}
          </select>
        </div>
        <div>
          <label for="viewer">Chat as (viewer name; new names are created)</label
          ><input type="text" id="viewer" value="viewer_alice" pattern="[A-Za-z0-9_]{3,25}" />
        </div>
        <div style="max-width:120px">
          <label for="color">Name colour</label><input type="color" id="color" value="#1e90ff" />
        </div>
      </div>
      <label>Badges</label>
      <div>
        ${badgeBoxes}<label style="display:inline-flex;gap:4px"
          >months <input type="text" id="months" value="1" size="3" style="width:60px"
        /></label>
      </div>
      <div id="log" aria-live="polite" style="margin-top:12px"></div>
      <form id="send-form" style="margin-top:8px">
        <div class="muted">
          <span id="replying"></span>
          <button type="button" class="secondary" id="cancel-reply" hidden>cancel reply</button>
        </div>
        <div class="row">
          <input
            type="text"
            id="content"
            maxlength="500"
            placeholder="Type a message, e.g. !hello or [emote:37226:KEKW]"
            autocomplete="off"
            required
          />
          <button class="primary" type="submit" style="flex:0">Send</button>
        </div>
      </form>
      <p id="status" class="muted"></p>
      <p>
        <button class="secondary" id="action-follow" type="button">Follow</button>
        <button class="secondary" id="action-subscribe" type="button">Subscribe</button>
        <button class="secondary" id="action-gift" type="button">Anonymous gift to this viewer</button>
        <button class="secondary" id="action-live" type="button">Go live</button>
        <button class="secondary" id="action-end" type="button">End stream</button>
      </p>
      <h2>Latest webhook deliveries for this channel</h2>
      <div id="deliveries"></div>
    </div>`;
  sendPage(res, { title: 'Chat — Kick sandbox', body, script: chatScript });
}
