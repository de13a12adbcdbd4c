import { createTokenSigner } from '@kickstand/platform/auth';
import { createHttpApp } from '@kickstand/platform/http';
import { platformReadiness, type PlatformDeps, type Service } from '@kickstand/platform/lifecycle';
import { adminRoutes } from './admin-routes';
import { createAnalytics } from './analytics';
import { createAuditLog } from './audit-log';
import { createCommandCounter } from './command-counter';
import { createUserChangePublisher, readModelHandlers, subscribeReadModel } from './events';
import { createPasswordHasher } from './passwords';
import { createLoginThrottle, defaultLoginThrottle } from './login-throttle';
import { createAuthRepository } from './repository';
import { platformRoutes } from './routes';
import type { AuthServiceOptions } from './options';
import { ensureSuperAdmin } from './super-admin';
import { createUsers, isWrongCredentials } from './users';
import { createTeam, teamCollection } from './team/team';
import { createTeamPublisher } from './team/team-events';
import { teamRoutes } from './team/team-routes';

export { authOptionsFromSettings, authSettingsSchema, type AuthSettings } from './config';
export type { SuperAdminSettings } from './super-admin';
export type { LoginThrottleSettings } from './login-throttle';
export type { AuthServiceOptions } from './options';

/**
 * Users, passwords, JWT issuing, the admin user list, the read model behind it, the audit log, and
 * the admin dashboard's figures and command usage.
 */
export function createAuthService(deps: PlatformDeps, options: AuthServiceOptions): Service {
  const repo = createAuthRepository(deps.store, { redeliveryWindowSeconds: options.redeliveryWindowSeconds });
  const audit = createAuditLog({ repo, log: deps.log });
  const counter = createCommandCounter({ repo, clock: deps.clock, log: deps.log });
  const analytics = createAnalytics({ repo, counter, clock: deps.clock, log: deps.log });
  const changes = createUserChangePublisher({ repo, bus: deps.bus, log: deps.log });
  const passwords = options.passwords ?? createPasswordHasher();
  const users = createUsers({
    repo,
    passwords,
    signer: createTokenSigner(options.jwtPrivateKey, { expiresInSeconds: options.tokenTtlSeconds, clock: deps.clock }),
    clock: deps.clock,
    log: deps.log,
    audit,
    changes,
  });
  // team access (issue 20): the owners' editors, announced on team.changed
  const teams = teamCollection(deps.store);
  const teamPublisher = createTeamPublisher({ teams, bus: deps.bus, clock: deps.clock, log: deps.log });
  const team = createTeam({
    teams,
    accounts: repo.users,
    audit,
    clock: deps.clock,
    publish: teamPublisher.flush,
  });
  const throttle = createLoginThrottle({
    collection: repo.rateLimitCollection,
    clock: deps.clock,
    settings: options.loginThrottle ?? defaultLoginThrottle,
    isCredentialFailure: isWrongCredentials,
  });

  const app = createHttpApp({
    service: deps.service,
    log: deps.log,
    http: deps.http,
    routes: [
      platformRoutes({ users, throttle, tokens: deps.tokens }),
      adminRoutes({ users, audit, analytics, tokens: deps.tokens }),
      teamRoutes({ team, audit, tokens: deps.tokens }),
    ],
    readiness: platformReadiness(deps),
  });

  let subscriptions: { stop(): Promise<void> } | undefined;

  return {
    app,
    start: async () => {
      await repo.createIndexes();
      await repo.commandUsage.open(deps.clock.now());
      await ensureSuperAdmin({ users, log: deps.log }, options);
      // the dummy hash that unknown-email logins verify against is made now, not on the first such login
      await passwords.verifyNothing('');
      counter.start();
      subscriptions = await subscribeReadModel(deps.bus, readModelHandlers({ repo, audit, analytics, log: deps.log }));
      await changes.start();
      await teams.createIndex({ fields: { editorIds: 1 } });
      await teamPublisher.start();
    },
    // stop only what start started: in single-machine mode the bus and the store are shared
    stop: async () => {
      changes.stop();
      teamPublisher.stop();
      await subscriptions?.stop();
      subscriptions = undefined;
      await counter.stop();
    },
  };
}
