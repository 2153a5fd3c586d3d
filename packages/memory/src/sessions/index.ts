export { assertSessionId } from './session-id.js';
export type {
  CreateSessionOptions,
  ForkSessionOptions,
  ListSessionsOptions,
  PendingQuestion,
  SessionInfo,
  SessionStore,
  SessionTurn,
  StoredSession,
} from './session-store.js';
export type { SessionStoreErrorCode } from './session-store-error.js';
export { SessionStoreError } from './session-store-error.js';
