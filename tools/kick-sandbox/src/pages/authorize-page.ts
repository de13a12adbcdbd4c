import type { Response } from 'express';
import type { PendingAuthorizationDoc, KickUserDoc } from '../repository';
import { isKickScope, scopeDescriptions } from '../oauth/scopes';
import { html, sendPage } from './html';

/** The page Kick shows at /oauth/authorize: who logs in, which scopes, Approve or Deny. */
export function sendAuthorizePage(
  res: Response,
  input: { pending: PendingAuthorizationDoc; appName: string; users: readonly KickUserDoc[] },
): void {
  const { pending, appName, users } = input;
  const options = users.map(
    (user) => html`<option value="${user.username}">${user.username} (id ${user.userId})</option>`,
  );
  const scopes = pending.scopes.map(
    (scope) =>
      html`<label
        ><input type="checkbox" name="scope" value="${scope}" checked />
        <span
          ><code>${scope}</code> <span class="muted">${isKickScope(scope) ? scopeDescriptions[scope] : ''}</span></span
        ></label
      >`,
  );
  const body = html` <h1>Kick sandbox — authorize</h1>
    <div class="card">
      <p><strong>${appName}</strong> wants to connect to a Kick account.</p>
      <p class="muted">After you decide, you go back to <code>${pending.redirectUri}</code>.</p>
      <form method="post" action="/oauth/authorize/decision">
        <input type="hidden" name="request_id" value="${pending._id}" />
        <label for="existing_username">Log in as an existing Kick user</label>
        <select id="existing_username" name="existing_username">
          ${options}
        </select>
        <label for="new_username">…or type a new username (it is created)</label>
        <input
          type="text"
          id="new_username"
          name="new_username"
          placeholder="e.g. my_streamer"
          pattern="[A-Za-z0-9_]{3,25}"
          autocomplete="off"
        />
        <h2>Requested scopes</h2>
        <p class="muted">Untick a scope to grant less than was asked, as a Kick user can.</p>
        <div class="scopes">${scopes}</div>
        <p>
          <button class="primary" type="submit" name="decision" value="approve">Approve</button>
          <button class="secondary" type="submit" name="decision" value="deny">Deny</button>
        </p>
      </form>
    </div>`;
  // an app-scheme redirect (myapp://…) has no origin: allow its scheme instead
  const target = new URL(pending.redirectUri);
  const formTarget = target.origin === 'null' ? target.protocol : target.origin;
  sendPage(res, { title: 'Authorize — Kick sandbox', body, formTargets: [formTarget] });
}

export function sendAuthorizeProblem(res: Response, message: string): void {
  const body = html`<h1>Kick sandbox — authorize</h1>
    <div class="card"><p class="error">${message}</p></div>`;
  sendPage(res, { title: 'Authorize — Kick sandbox', body, status: 400 });
}
