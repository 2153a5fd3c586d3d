import type { Agent, AgentEvent } from '@agentloop/core';
import type { SessionStore } from '@agentloop/memory';
import type { StepRetryPolicy } from './journal/restate-journal.js';

/** What `createAgent` is given: the session the run belongs to. */
export interface CreateDurableAgentContext {
  /** The session id: the Virtual Object's key. */
  sessionId: string;
}

/** Where an event of a durable run goes, with the session it belongs to. */
export interface DurableEventContext {
  sessionId: string;
}

/** Options of `durableAgent`. */
export interface DurableAgentOptions {
  /** The Virtual Object's name: the first part of its URL (`<ingress>/<name>/<sessionId>/run`). */
  name: string;
  /**
   * Makes the agent of one invocation of `run` (a replay on another worker makes it again): a
   * DefaultAgent with its provider, tools, prompt and approval policy, as an in-process app makes it. It
   * must not keep a session of its own (no `session` option): the durable agent keeps the conversation
   * (see `sessionStore`), and gives each run its journal.
   */
  createAgent(context: CreateDurableAgentContext): Agent | Promise<Agent>;
  /**
   * Receives the typed events of every run, at least once: a step a worker's death cut off may emit
   * again, and a replayed run emits its loop events again, with the same `eventId` (deduplicate by it).
   * A journal step is recorded only once the events it emitted were delivered (a returned promise
   * settled), so none is lost with a worker. A listener that throws or rejects is not called again.
   */
  onEvent?(event: AgentEvent, context: DurableEventContext): void | Promise<void>;
  /**
   * Keeps the conversations in this store (`@agentloop/sessions`' PostgreSQL store, for instance) instead
   * of the Virtual Object's state, read and written in journal steps. Restate's key is the session's
   * lock; the store's own is taken only while a turn is saved. Default: the object's state.
   */
  sessionStore?: SessionStore;
  /**
   * How a journal step whose effect failed unexpectedly (not a provider's or a tool's failure, which the
   * loop records as data) is retried before the run ends with `error`. Default: 3 attempts, 1 s apart and
   * doubling.
   */
  stepRetry?: StepRetryPolicy;
}
