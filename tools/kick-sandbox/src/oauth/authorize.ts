import { z } from 'zod';
import type { Clock } from '@kickstand/platform/clock';
import type { App } from '../app-settings';
import { newOpaqueSecret } from '../ids';
import { usernamePattern, type KickUsers } from '../kick-users';
import type { PendingAuthorizationDoc, Repository } from '../repository';
import { addSeconds } from '../time';
import { invalidRequest } from './oauth-errors';
import { codeChallengePattern } from './pkce';
import { isKickScope, splitScopes } from './scopes';
import type { Tokens } from './tokens';

const pendingSeconds = 600;

// A parameter given twice arrives as an array and fails here, as a malformed request should.
const one = z.string().min(1).max(2048);

const authorizeQuerySchema = z.object({
  client_id: one,
  response_type: z.literal('code'),
  redirect_uri: one,
  scope: one,
  state: one,
  code_challenge: z.string().regex(codeChallengePattern),
  code_challenge_method: z.literal('S256'),
  // sandbox-only shortcuts for tests; Kick ignores parameters it does not know, so these are harmless
  sandbox_auto_approve: z.string().regex(usernamePattern).optional(),
  sandbox_auto_deny: z.enum(['1', 'true']).optional(),
  sandbox_scope: z.string().max(2048).optional(),
});

export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string;
  codeChallenge: string;
  autoApproveAs?: string;
  isAutoDenied: boolean;
  /** The scopes an auto-approval grants (default: all requested). */
  autoScopes?: string[];
}

export const decisionFormSchema = z.object({
  request_id: z.string().min(1).max(200),
  decision: z.enum(['approve', 'deny']),
  existing_username: z.string().max(100).optional(),
  new_username: z.string().max(100).optional(),
  // one checkbox per scope: absent, one value, or several
  scope: z.union([z.string(), z.array(z.string())]).optional(),
});

export type DecisionForm = z.infer<typeof decisionFormSchema>;

export type ApprovableRequest = Pick<PendingAuthorizationDoc, 'clientId' | 'redirectUri' | 'state' | 'codeChallenge'>;

/** A decision the page can show: the redirect to follow, or what was wrong with the form. */
export type DecisionOutcome = { kind: 'redirect'; location: string } | { kind: 'invalid'; message: string };

export interface Authorizations {
  /** Checks every parameter exactly as Kick does; throws the 400 `{"error":"Invalid request"}` otherwise. */
  parse(query: unknown): AuthorizeRequest;
  /** Keeps the request server-side while a person decides; the page carries only its unguessable id. */
  hold(request: AuthorizeRequest): Promise<PendingAuthorizationDoc>;
  /** The redirect for an approval as this user, with these scopes (a subset of the requested ones). */
  approve(request: ApprovableRequest, username: string, scopes: readonly string[]): Promise<string>;
  deny(pending: Pick<PendingAuthorizationDoc, 'redirectUri' | 'state'>): string;
  decide(form: DecisionForm): Promise<DecisionOutcome>;
}

function withParams(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.append(name, value);
  return url.toString();
}

export function createAuthorizations(deps: {
  repo: Repository;
  app: App;
  users: KickUsers;
  tokens: Tokens;
  clock: Clock;
}): Authorizations {
  const { repo, app, users, tokens, clock } = deps;

  async function approve(request: ApprovableRequest, username: string, scopes: readonly string[]) {
    const user = await users.ensure(username);
    const code = await tokens.issueCode(request, user.userId, scopes);
    return withParams(request.redirectUri, { code, state: request.state });
  }

  const deny = (pending: Pick<PendingAuthorizationDoc, 'redirectUri' | 'state'>) =>
    withParams(pending.redirectUri, { error: 'access_denied', state: pending.state });

  return {
    parse(query) {
      const parsed = authorizeQuerySchema.safeParse(query);
      if (!parsed.success) throw invalidRequest();
      const q = parsed.data;
      const scopes = splitScopes(q.scope);
      const requested = new Set<string>(scopes);
      const isValid =
        q.client_id === app.clientId &&
        app.redirectUris.includes(q.redirect_uri) &&
        URL.canParse(q.redirect_uri) &&
        scopes.length > 0 &&
        scopes.every(isKickScope);
      if (!isValid) throw invalidRequest();
      const autoScopes = q.sandbox_scope === undefined ? undefined : splitScopes(q.sandbox_scope);
      if (autoScopes && !autoScopes.every((scope) => requested.has(scope))) throw invalidRequest();
      return {
        clientId: q.client_id,
        redirectUri: q.redirect_uri,
        scopes: [...requested],
        state: q.state,
        codeChallenge: q.code_challenge,
        autoApproveAs: q.sandbox_auto_approve,
        isAutoDenied: q.sandbox_auto_deny !== undefined,
        autoScopes,
      };
    },

    async hold(request) {
      const now = clock.now();
      return repo.pendingAuthorizations.insertOne({
        _id: newOpaqueSecret(24),
        clientId: request.clientId,
        redirectUri: request.redirectUri,
        scopes: request.scopes,
        state: request.state,
        codeChallenge: request.codeChallenge,
        createdAt: now,
        expiresAt: addSeconds(now, pendingSeconds),
      });
    },

    approve,
    deny,

    async decide(form) {
      const pending = await repo.pendingAuthorizations.findOne({ _id: form.request_id });
      if (!pending || pending.expiresAt.getTime() <= clock.now().getTime()) {
        return {
          kind: 'invalid',
          message: 'This authorization request is unknown or has expired. Start again from the app.',
        };
      }
      if (form.decision === 'deny') {
        if ((await repo.pendingAuthorizations.deleteOne({ _id: pending._id })) === 0) {
          return { kind: 'invalid', message: 'This authorization request was already answered.' };
        }
        return { kind: 'redirect', location: deny(pending) };
      }
      const username = (form.new_username?.trim() || form.existing_username?.trim()) ?? '';
      if (!usernamePattern.test(username)) {
        return { kind: 'invalid', message: 'Pick a user, or type a username of 3–25 letters, digits or underscores.' };
      }
      const checked = form.scope === undefined ? [] : Array.isArray(form.scope) ? form.scope : [form.scope];
      const granted = pending.scopes.filter((scope) => checked.includes(scope));
      // deleting is the claim: a second submit of the same page cannot mint a second code
      if ((await repo.pendingAuthorizations.deleteOne({ _id: pending._id })) === 0) {
        return { kind: 'invalid', message: 'This authorization request was already answered.' };
      }
      return { kind: 'redirect', location: await approve(pending, username, granted) };
    },
  };
}
