import type { SessionStore } from '@agentloop/memory';
import { describeThrown, type LLMProvider, PROVIDER_SPECIFICATION_VERSION } from '@agentloop/spec';
import type { RegisteredTool } from '@agentloop/tools';
import { taskCompletionWithOutput } from '@agentloop/tools/internal';
import { AgentUsageError } from '../errors/index.js';
import type { AgentOptions, OnMaxIterations, OutputSchema } from './agent-options.js';
import { randomId } from './random-id.js';

// The checks of what an app hands the agent: each bad value is an AgentUsageError saying what it got and
// what it takes, thrown before anything runs.

/** How many tool calls of one response run at once unless `maxParallelTools` says otherwise. */
export const DEFAULT_MAX_PARALLEL_TOOLS = 4;

/** The loop's limits of the options, with their defaults, each checked. */
export interface LoopLimits {
  maxIterations: number;
  maxParallelTools: number;
  onMaxIterations: OnMaxIterations;
}

/** `maxIterations`, `maxParallelTools`, `parallelToolCalls` and `onMaxIterations`, checked; the first three with defaults. */
export function checkedLoopLimits(options: AgentOptions): LoopLimits {
  const maxIterations = options.maxIterations ?? 10;
  if (!Number.isInteger(maxIterations) || maxIterations < 1) {
    throw new AgentUsageError(
      `maxIterations must be a whole number of at least 1, got ${options.maxIterations}.`,
      'invalid_option',
    );
  }
  const maxParallelTools = options.maxParallelTools ?? DEFAULT_MAX_PARALLEL_TOOLS;
  if (!(Number.isInteger(maxParallelTools) || maxParallelTools === Number.POSITIVE_INFINITY) || maxParallelTools < 1) {
    throw new AgentUsageError(
      `maxParallelTools must be a whole number of at least 1, or Infinity, got ${options.maxParallelTools}.`,
      'invalid_option',
    );
  }
  if (options.parallelToolCalls !== undefined && typeof options.parallelToolCalls !== 'boolean') {
    throw new AgentUsageError(
      `parallelToolCalls must be true or false, got ${JSON.stringify(options.parallelToolCalls)}.`,
      'invalid_option',
    );
  }
  const onMaxIterations = options.onMaxIterations ?? 'wrap-up';
  if (onMaxIterations !== 'wrap-up' && onMaxIterations !== 'stop') {
    throw new AgentUsageError(
      `onMaxIterations must be 'wrap-up' or 'stop', got ${JSON.stringify(options.onMaxIterations)}.`,
      'invalid_option',
    );
  }
  return { maxIterations, maxParallelTools, onMaxIterations };
}

/** task_completion for a run with this output schema; a schema it cannot use is the caller's mistake. */
export function outputTool(output: OutputSchema): RegisteredTool {
  try {
    return taskCompletionWithOutput(output);
  } catch (error) {
    throw new AgentUsageError(describeThrown(error), 'invalid_option');
  }
}

/** The session id: `session.id` or `sessionId` (which must agree when both are given), or a new one. */
export function sessionIdOf(options: AgentOptions): string {
  const fromSession = options.session?.id;
  if (fromSession !== undefined && options.sessionId !== undefined && fromSession !== options.sessionId) {
    throw new AgentUsageError(
      `session.id (${JSON.stringify(fromSession)}) and sessionId (${JSON.stringify(options.sessionId)}) differ: give one of them.`,
      'invalid_option',
    );
  }
  return fromSession ?? options.sessionId ?? randomId();
}

/** The provider, once it is known to speak the contract this agent was built for. */
export function checkedProvider(provider: LLMProvider): LLMProvider {
  const version: unknown = provider?.specificationVersion;
  if (version === PROVIDER_SPECIFICATION_VERSION) return provider;
  throw new AgentUsageError(
    `The provider ${provider?.id ?? '(none)'} implements provider contract ${JSON.stringify(version ?? null)}, ` +
      `but this agent speaks "${PROVIDER_SPECIFICATION_VERSION}": set \`specificationVersion: '${PROVIDER_SPECIFICATION_VERSION}'\` ` +
      'on a provider written for it, or use a version of @agentloop/core that matches the provider.',
    'unsupported_provider',
  );
}

/** The store of the `session` option, once it is known to be a SessionStore. */
export function checkedSessionStore(options: AgentOptions): SessionStore {
  const store = options.session?.store;
  if (typeof store?.open !== 'function' || typeof store.commit !== 'function') {
    throw new AgentUsageError(
      '`session.store` must be a SessionStore (JsonlSessionStore or SqliteSessionStore from @agentloop/sessions).',
      'invalid_option',
    );
  }
  return store;
}
