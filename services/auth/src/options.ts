import type { LoginThrottleSettings } from './login-throttle';
import type { SuperAdminSettings } from './super-admin';
import type { PasswordHasher } from './passwords';

// The service's options on their own, so that config.ts (which builds them) and service.ts (which
// takes them) both depend on this file instead of on each other.
export interface AuthServiceOptions {
  /** RS256 private key (PEM) that signs sign-in tokens; the platform's verifiers hold the public key. */
  jwtPrivateKey: string;
  tokenTtlSeconds: number;
  /**
   * How long a counted command.executed is still recognised when the bus delivers it again:
   * `redeliveryWindowSeconds` of the bus in use (@kickstand/platform/config): 2 minutes with
   * the in-process bus, KAFKA_REDELIVERY_WINDOW (3 days by default) with Kafka.
   */
  redeliveryWindowSeconds: number;
  /** Created (or promoted) at start: SUPER_ADMIN_EMAIL / SUPER_ADMIN_PASSWORD / SUPER_ADMIN_USERNAME. */
  superAdmin?: SuperAdminSettings;
  /**
   * Single-machine mode: when no super administrator exists and `superAdmin` is not given, one is
   * made with a random password, saved in this file (mode 0600).
   */
  generatedAdminFile?: string;
  /** How failed sign-ins are slowed down (login-throttle.ts); `defaultLoginThrottle` by default. */
  loginThrottle?: LoginThrottleSettings;
  /** argon2id with OWASP's parameters by default; tests pass one that records what it was asked. */
  passwords?: PasswordHasher;
}
