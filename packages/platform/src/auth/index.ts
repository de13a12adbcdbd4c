export { adminRequiredMessage, currentUser, requireAdmin, requireUser } from './current-user';
export {
  decodePem,
  generateJwtKeyPair,
  isPrivateKeyPem,
  isPublicKeyPem,
  loadOrCreateJwtKeyPair,
  type JwtKeyPair,
} from './keys';
export {
  bearerToken,
  createTokenSigner,
  createTokenVerifier,
  roles,
  type Identity,
  type Role,
  type TokenSigner,
  type TokenVerifier,
} from './tokens';
export {
  createUserAccess,
  deactivatedMessage,
  sessionEndedMessage,
  subscribeUserAccess,
  userAccessGroup,
  type TokenFacts,
  type UserAccess,
} from './user-access';
export {
  createEditorActionRecorder,
  createTeamAccess,
  editorActionAudit,
  resolveActingFor,
  subscribeTeamAccess,
  teamAccessGroup,
  type EditorAction,
  type TeamAccess,
  type TeamGate,
} from './team-access';
