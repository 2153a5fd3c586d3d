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
): Promise<ToolCallOutcome> {
  const entry = registry.get(call.toolName);
  if (!entry) {
    const known = registry.list().map((registered) => registered.tool.name).join(', ');
    return failure('unknown_tool', `Unknown tool "${call.toolName}". Available tools: ${known}.`);
  }
  const validation = await entry.validate(call.arguments);
  if (!validation.ok) {
    return failure(
      'invalid_arguments',
      `Invalid arguments for tool "${call.toolName}": ${validation.message}. Fix the arguments and call the tool again.`,
    );
  }
  if (context.signal.aborted) return failure('cancelled', 'The tool call was cancelled before it started.');
  try {
    const value = await untilAborted(Promise.resolve(entry.tool.execute(validation.value, context)), context.signal);
    return { status: 'ok', content: stringifyToolResult(value), value, arguments: validation.value };
  } catch (error) {
    if (context.signal.aborted) return failure('cancelled', 'The tool call was cancelled by the user.', error);
    const message = error instanceof Error ? error.message : String(error);
    const code = AgentloopError.isInstance(error) ? ` [${error.code}]` : '';
    return failure('tool_failed', `Tool "${call.toolName}" failed${code}: ${message}`, error);
  }
}

/** Turns a tool's return value into the text the model sees: strings as they are, the rest as JSON. */
export function stringifyToolResult(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '(no output)';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
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
