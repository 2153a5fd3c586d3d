import type { SessionStore } from '@agentloop/memory';
import { type AnyLLMProvider, describeThrown, type LLMProvider, PROVIDER_SPECIFICATION_VERSION } from '@agentloop/spec';
import type { RegisteredTool } from '@agentloop/tools';
import { DEFAULT_MAX_RESULT_CHARS, DEFAULT_TOOL_TIMEOUT_MS } from '@agentloop/tools';
import { taskCompletionWithOutput } from '@agentloop/tools/internal';
import { AgentUsageError } from '../errors/index.js';
import { batchedProvider } from '../loop/batched-provider.js';
import type { LoopSettings } from '../loop/loop-settings.js';
import type { AgentOptions, OutputSchema } from './agent-options.js';
import { randomId } from './random-id.js';

// The checks of what an app hands the agent: each bad value is an AgentUsageError saying what it got and
// what it takes, thrown before anything runs.

/** Model calls per run unless `maxIterations` says otherwise. */
export const DEFAULT_MAX_ITERATIONS = 10;

/** How many tool calls of one response run at once unless `maxParallelTools` says otherwise. */
export const DEFAULT_MAX_PARALLEL_TOOLS = 4;

/**
 * The settings the loop reads, each checked, with the agent's defaults: the only place they are. The tool
 * result cap and the tool timeout are @agentloop/tools' own defaults, so that an app calling `runToolCall`
 * and an agent cut and stop tools alike.
 */
export function checkedLoopSettings(options: AgentOptions): LoopSettings {
  const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
  if (!Number.isInteger(maxIterations) || maxIterations < 1) {
    throw invalidOption(`maxIterations must be a whole number of at least 1, got ${describe(options.maxIterations)}.`);
  }
  const maxParallelTools = options.maxParallelTools ?? DEFAULT_MAX_PARALLEL_TOOLS;
  if (!isCount(maxParallelTools)) {
    throw invalidOption(
      `maxParallelTools must be a whole number of at least 1, or Infinity, got ${describe(options.maxParallelTools)}.`,
    );
  }
  const parallelToolCalls = options.parallelToolCalls;
  if (parallelToolCalls !== undefined && typeof parallelToolCalls !== 'boolean') {
    throw invalidOption(`parallelToolCalls must be true or false, got ${describe(options.parallelToolCalls)}.`);
  }
  const onMaxIterations = options.onMaxIterations ?? 'wrap-up';
  if (onMaxIterations !== 'wrap-up' && onMaxIterations !== 'stop') {
    throw invalidOption(`onMaxIterations must be 'wrap-up' or 'stop', got ${describe(options.onMaxIterations)}.`);
  }
  const maxToolResultChars = options.maxToolResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  if (!isCount(maxToolResultChars)) {
    throw invalidOption(
      `maxToolResultChars must be a whole number of characters, at least 1, or Infinity, got ${describe(options.maxToolResultChars)}.`,
    );
  }
  const toolTimeoutMs = options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  if (typeof toolTimeoutMs !== 'number' || !(toolTimeoutMs >= 0)) {
    throw invalidOption(
      `toolTimeoutMs must be a number of milliseconds, 0 or more (0 never times out), got ${describe(options.toolTimeoutMs)}.`,
    );
  }
  return {
    maxIterations,
    onMaxIterations,
    maxParallelTools,
    ...(parallelToolCalls === undefined ? {} : { parallelToolCalls }),
    maxToolResultChars,
    toolTimeoutMs,
    ...(options.settings ? { settings: options.settings } : {}),
  };
}

/** A whole number of at least 1, or Infinity. */
function isCount(value: unknown): value is number {
  return typeof value === 'number' && (Number.isInteger(value) || value === Number.POSITIVE_INFINITY) && value >= 1;
}

/** A value as an error message shows it: strings quoted, so that `"10"` is told from `10`. */
function describe(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
}

function invalidOption(message: string): AgentUsageError {
  return new AgentUsageError(message, 'invalid_option');
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

/**
 * The provider, once it is known to speak a contract this agent knows: a `v2` provider as it is, a `v1`
 * provider wrapped so that its chunks come in batches of one.
 */
export function checkedProvider(provider: AnyLLMProvider): LLMProvider {
  const version: unknown = provider?.specificationVersion;
  if (version === PROVIDER_SPECIFICATION_VERSION || version === 'v1') return batchedProvider(provider);
  throw new AgentUsageError(
    `The provider ${provider?.id ?? '(none)'} implements provider contract ${JSON.stringify(version ?? null)}, ` +
      `but this agent speaks "${PROVIDER_SPECIFICATION_VERSION}" (and "v1"): set \`specificationVersion: '${PROVIDER_SPECIFICATION_VERSION}'\` ` +
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
