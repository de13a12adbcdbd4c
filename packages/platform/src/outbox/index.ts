export { createOutboxRelay, type OutboxDocument, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
