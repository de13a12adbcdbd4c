// The `$` command language: how a chat line becomes a command, how a response template is filled
// in, and the randomness port its `{random:A-B}` (and the games) draw from. Pure; no I/O.
export { builtInCommandNames, commandKey, commandPrefix, parseChatCommand, type ChatCommand } from './chat-command';
export {
  chatMessageMaxLength,
  counterChanges,
  counterNameMaxLength,
  counterStepMax,
  formatUptime,
  parseCounterUse,
  randomRange,
  randomVariableMax,
  renderResponse,
  responseVariables,
  truncateForChat,
  usesStream,
  type CounterUse,
  type ResponseContext,
  type StreamState,
  type ResponseVariable,
} from './response-template';
export { systemRandom, type Random } from './random';
