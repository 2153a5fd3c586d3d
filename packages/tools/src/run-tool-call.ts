import { AgentloopError } from './errors/index.js';
import type { ToolContext } from './tool.js';
import type { ToolRegistry } from './tool-registry.js';

/** A tool call as the model made it, with arguments already decoded from JSON. */
export interface ToolCallRequest {
  /** The call's id, as the model or provider gave it. */
  toolCallId: string;
  /** The name of the tool to call. */
  toolName: string;
  /** The decoded arguments (usually an object). */
  arguments: unknown;
}

/** Why a tool call failed. */
export type ToolFailureCode = 'unknown_tool' | 'invalid_arguments' | 'tool_failed' | 'cancelled';

/** The outcome of one tool call: the text the model will see, and the raw value or the failure. */
export type ToolCallOutcome =
  | { status: 'ok'; content: string; value: unknown; arguments: unknown }
  | { status: 'error'; content: string; code: ToolFailureCode; error?: unknown };

/**
 * Validates a call's arguments and runs the tool. Never throws: an unknown tool, invalid arguments, a
 * thrown error and a cancellation all come back as an `error` outcome whose `content` tells the model
 * what went wrong and what to do. A tool that ignores its AbortSignal is abandoned on cancel, so a
 * cancelled run never waits on it.
 */
export async function runToolCall(
  registry: ToolRegistry,
  call: ToolCallRequest,
  context: ToolContext,
  options: { maxResultChars?: number } = {},
): Promise<ToolCallOutcome> {
  const entry = registry.get(call.toolName);
  if (!entry) {
    const known = registry
      .list()
      .map((registered) => registered.tool.name)
      .join(', ');
    return failure('unknown_tool', `Unknown tool "${call.toolName}". Available tools: ${known}.`);
  }
  let validation: Awaited<ReturnType<typeof entry.validate>>;
  try {
    validation = await entry.validate(call.arguments);
  } catch (error) {
    // A schema's own transform or refine may throw; that is the tool failing, not the loop.
    const message = error instanceof Error ? error.message : String(error);
    return failure('tool_failed', `Tool "${call.toolName}" failed while validating its arguments: ${message}`, error);
  }
  if (!validation.ok) {
    return failure(
      'invalid_arguments',
      `Invalid arguments for tool "${call.toolName}": ${validation.message}. Fix the arguments and call the tool again.`,
    );
  }
  if (context.signal.aborted) return failure('cancelled', 'The tool call was cancelled before it started.');
  try {
    const value = await untilAborted(Promise.resolve(entry.tool.execute(validation.value, context)), context.signal);
    return {
      status: 'ok',
      content: stringifyToolResult(value, options.maxResultChars),
      value,
      arguments: validation.value,
    };
  } catch (error) {
    if (context.signal.aborted) return failure('cancelled', 'The tool call was cancelled by the user.', error);
    const message = error instanceof Error ? error.message : String(error);
    const code = AgentloopError.isInstance(error) ? ` [${error.code}]` : '';
    return failure('tool_failed', `Tool "${call.toolName}" failed${code}: ${message}`, error);
  }
}

/** The longest tool result sent to the model by default, in characters. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/**
 * Turns a tool's return value into the text the model sees: strings as they are, the rest as JSON
 * (circular references as "[Circular]", bigints as strings). Text longer than `maxChars` is cut with a
 * note of how much was cut, since every later request carries it. Never throws.
 */
export function stringifyToolResult(value: unknown, maxChars = DEFAULT_MAX_RESULT_CHARS): string {
  const text = typeof value === 'string' ? value : value === undefined ? '(no output)' : toJson(value);
  return text.length > maxChars
    ? `${text.slice(0, maxChars)}\n… (cut: ${text.length - maxChars} more characters)`
    : text;
}

function toJson(value: unknown): string {
  const seen = new WeakSet<object>();
  try {
    const json = JSON.stringify(value, (_key, field: unknown) => {
      if (typeof field === 'bigint') return field.toString();
      if (typeof field !== 'object' || field === null) return field;
      if (seen.has(field)) return '[Circular]';
      seen.add(field);
      return field;
    });
    return json ?? String(value);
  } catch (error) {
    return `(the result could not be serialized: ${error instanceof Error ? error.message : String(error)})`;
  }
}

function failure(code: ToolFailureCode, content: string, error?: unknown): ToolCallOutcome {
  return { status: 'error', code, content, ...(error === undefined ? {} : { error }) };
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    // The tool's synchronous part may itself have aborted the signal; the event has then already fired.
    if (signal.aborted) onAbort();
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
