export { durableAgent } from './durable-agent.js';
export type {
  CreateDurableAgentContext,
  DurableAgentOptions,
  DurableEventContext,
} from './durable-agent-options.js';
export type { DurableRunError, DurableRunResult } from './durable-result.js';
export {
  RestateJournal,
  type RestateJournalHooks,
  type RestateJournalOptions,
  type StepRetryPolicy,
} from './journal/restate-journal.js';
export { installPromiseWithResolvers } from './node20/install-promise-with-resolvers.js';
export type { DurableAnswer, DurableAnswerResult, DurableSessionState } from './run/shared-handlers.js';
export type {
  PendingApproval,
  PendingDurableQuestion,
} from './state/durable-state.js';
export type { SessionGrant } from './state/session-grant.js';
