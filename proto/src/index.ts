// @kickstand/proto — the event contracts. Every topic carries exactly one of these messages
// (packages/platform/src/bus/topics.ts maps topic → schema; docs/topics.md explains the rules).
//
// Each generated module exports, per message, its schema (`ChatReceivedSchema`, for create,
// toBinary and fromBinary from @bufbuild/protobuf) and its type (`ChatReceived`), and, per enum,
// the enum itself and its schema (`ChangeKind`, `ChangeKindSchema`). The source is
// kickstand/events/v1/*.proto; regenerate with `npm run generate -w @kickstand/proto`.

export * from './gen/kickstand/events/v1/common_pb';
export * from './gen/kickstand/events/v1/chat_received_pb';
export * from './gen/kickstand/events/v1/chat_send_pb';
export * from './gen/kickstand/events/v1/chat_sent_pb';
export * from './gen/kickstand/events/v1/command_executed_pb';
export * from './gen/kickstand/events/v1/command_changed_pb';
export * from './gen/kickstand/events/v1/bot_status_pb';
export * from './gen/kickstand/events/v1/bot_control_pb';
export * from './gen/kickstand/events/v1/user_changed_pb';
export * from './gen/kickstand/events/v1/kick_account_pb';
export * from './gen/kickstand/events/v1/kick_event_pb';
export * from './gen/kickstand/events/v1/game_event_pb';
export * from './gen/kickstand/events/v1/audit_recorded_pb';
export * from './gen/kickstand/events/v1/chat_subscription_pb';
export * from './gen/kickstand/events/v1/moderation_pb';
export * from './gen/kickstand/events/v1/team_changed_pb';

// google.protobuf.Timestamp ⇄ Date / epoch ms, @bufbuild's own conversions: every service converts
// through these (services do not depend on @bufbuild/protobuf themselves).
export { timestampDate, timestampFromDate, timestampFromMs, timestampMs, type Timestamp } from '@bufbuild/protobuf/wkt';
export * from './command-settings';
