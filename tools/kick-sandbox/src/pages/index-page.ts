import type { Response } from 'express';
import type { AppSettings } from '../app-settings';
import type { KickUserDoc } from '../repository';
import { html, sendPage } from './html';

export interface IndexPageInput {
  publicUrl: string;
  clientId: string;
  redirectUris: readonly string[];
  settings: AppSettings;
  users: readonly KickUserDoc[];
}

const controlRoutes: [string, string][] = [
  ['GET /sandbox/api/users · POST /sandbox/api/users', 'Kick users and channels'],
  ['PATCH /sandbox/api/channels/:user', 'set live state and channel settings silently'],
  [
    'POST /sandbox/api/events/{chat,follow,subscription-new,subscription-renewal,subscription-gifts,stream-start,stream-end,metadata,ban,raw}',
    'trigger events',
  ],
  [
    'GET /sandbox/api/{chat,bans,subscriptions,calls,deliveries}',
    'what the app did and what was delivered (afterSeq, waitMs)',
  ],
  ['GET · PATCH · DELETE /sandbox/api/faults', 'delivery faults'],
  [
    'GET · PATCH · DELETE /sandbox/api/real-kick · POST /sandbox/api/real-kick/preset · POST /sandbox/api/subscriptions/drop',
    'real Kick behaviour (bot chat refused, 429, is_sent false, payload drift, dropped subscriptions)',
  ],
  ['GET /sandbox/api/tokens · POST /sandbox/api/tokens/{expire,invalidate}', 'token controls'],
  ['GET · PATCH /sandbox/api/app · POST /sandbox/api/signing-key/rotate', 'app settings and signing key'],
];

/** `GET /`: what the sandbox is, how to point the product at it, and who exists. */
export function sendIndexPage(res: Response, input: IndexPageInput): void {
  const { publicUrl, clientId, redirectUris, settings, users } = input;
  const rows = users.map(
    (user) =>
      html`<tr>
        <td>${user.username}</td>
        <td>${user.userId}</td>
        <td>${user.channel.isLive ? 'live' : 'offline'}</td>
        <td>${user.channel.streamTitle}</td>
      </tr>`,
  );
  const routes = controlRoutes.map(
    ([route, what]) =>
      html`<tr>
        <td><code>${route}</code></td>
        <td>${what}</td>
      </tr>`,
  );
  const body = html` <h1>Kick sandbox</h1>
    <p>
      A local stand-in for Kick's public API: OAuth, REST under <code>/public/v1</code>, and signed webhook deliveries.
    </p>
    <p><a href="/sandbox">Open the chat page</a> to type in a channel as a viewer and watch the bot answer.</p>
    <p>
      <a href="/sandbox/real-kick">Real Kick switches</a>: make the sandbox behave like the live service instead of its
      documentation.
    </p>
    <div class="card">
      <h2>Point the product here</h2>
      <table>
        <tr>
          <td>KICK_OAUTH_URL</td>
          <td><code>${publicUrl}</code></td>
        </tr>
        <tr>
          <td>KICK_API_URL</td>
          <td><code>${publicUrl}/public/v1</code></td>
        </tr>
        <tr>
          <td>Client id</td>
          <td><code>${clientId}</code></td>
        </tr>
        <tr>
          <td>Redirect URIs</td>
          <td><code>${redirectUris.join(' ')}</code></td>
        </tr>
        <tr>
          <td>Webhook URL</td>
          <td><code>${settings.webhookUrl}</code> (${settings.isWebhookEnabled ? 'enabled' : 'disabled'})</td>
        </tr>
        <tr>
          <td>Public key</td>
          <td><code>GET ${publicUrl}/public/v1/public-key</code></td>
        </tr>
      </table>
    </div>
    <div class="card">
      <h2>Kick users</h2>
      <table>
        <tr>
          <th>Username</th>
          <th>User id</th>
          <th>Stream</th>
          <th>Title</th>
        </tr>
        ${rows}
      </table>
    </div>
    <div class="card">
      <h2>Control API</h2>
      <table>
        ${routes}
      </table>
    </div>`;
  sendPage(res, { title: 'Kick sandbox', body });
}
