/**
 * The stateless half of Kick's webhook door, for a thread that is not kick-link's (single-machine
 * mode's front door): the door's checks and answers without a framework, the Express route, and
 * the verifier. A module of its own (the package's `./front-door` export) so that such a thread
 * does not load the rest of the service.
 */
export {
  checkKickDelivery,
  createKickWebhookDoor,
  parseBodyLimit,
  webhookAnswers,
  type DeliveryInput,
  type KickDeliveryCheck,
  type KickWebhookDoor,
  type WebhookAnswer,
  type WebhookDeps,
} from './webhook-check';
export { kickWebhookRoutes, webhookPath } from './webhook-routes';
export { createWebhookVerifier, type WebhookVerifier } from './webhook-verification';
export type { IntakeAnswer, WebhookIntake } from './webhook-intake';
export type { VerifiedDelivery } from './webhook-delivery';
export type { RefusalReason } from './delivery-health';
