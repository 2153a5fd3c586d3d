import type { ToolCallPart, ToolResultImage } from '@agentloop/spec';
import { CallContext, CallRace, formatDuration, type MaybePromise } from './call-race.js';
import { AgentloopError, describeThrown } from './errors/index.js';
import { isPromiseLike } from './promise-like.js';
import type { ArgumentValidation } from './schema/index.js';
import type { Tool, ToolContext } from './tool.js';
import type { RegisteredTool, ToolRegistry } from './tool-registry.js';
import { isToolResult } from './tool-result.js';

/**
 * Why a tool call failed or was not run: `unknown_tool`, `invalid_arguments` (schema or JSON),
 * `truncated_arguments` (cut off before they were complete), `parse_error` (an XML block that could not
 * be decoded), `tool_failed` (it threw), `timeout`, `cancelled`, `denied` (the approval policy or the
 * user refused it), `not_run` (the turn ended before it).
 */
export type ToolFailureCode =
  | 'unknown_tool'
  | 'invalid_arguments'
  | 'truncated_arguments'
  | 'parse_error'
  | 'tool_failed'
  | 'timeout'
  | 'cancelled'
  | 'denied'
  | 'not_run';

/**
 * What running one tool call produced: the text the model sees, and the tool's value or the failure.
 * It names its call, so that it becomes the call's result in history as it is.
 */
export type ToolCallOutcome =
  | {
      status: 'ok';
      toolCallId: string;
      toolName: string;
      /** The text the model sees (for a `toolResult`, its text, which describes its images). */
      content: string;
      /** The images of a `toolResult`, for providers that take them; absent when there are none. */
      images?: readonly ToolResultImage[];
      /** What `execute` returned. */
      value: unknown;
      /** The arguments after validation (defaults applied, transforms run). */
      arguments: unknown;
    }
  | {
      status: 'error';
      toolCallId: string;
      toolName: string;
      /** The text the model sees: what went wrong and what to do. */
      content: string;
      code: ToolFailureCode;
      /** What was thrown, when something was. */
      error?: unknown;
    };

/**
 * Where `runToolCall` looks a call's tool up: a ToolRegistry, or a view of one (a run with an `output`
 * schema sees its own task_completion).
 */
export type ToolLookup = Pick<ToolRegistry, 'get' | 'list'>;

/** The call to run: a tool call as history keeps it (`ToolCallPart`). */
export type ToolCallInput = Pick<ToolCallPart, 'toolCallId' | 'toolName' | 'arguments'>;

/** An error outcome for `call`. */
export function toolCallFailure(
  call: ToolCallInput,
  code: ToolFailureCode,
  content: string,
  error?: unknown,
): ToolCallOutcome {
  return {
    status: 'error',
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    code,
    content,
    ...(error === undefined ? {} : { error }),
  };
}

/** How one call is run. */
export interface RunToolCallOptions {
  /** The longest result text sent to the model, in characters. */
  maxResultChars?: number;
  /**
   * How long the call (validating its arguments, then running the tool) may take before it is stopped,
   * in milliseconds, unless the tool sets its own `timeoutMs`. 0 or `Infinity` never times out. The
   * longest timer Node keeps is 2^31 - 1 ms (about 24.8 days): a longer timeout waits that long.
   * Default `DEFAULT_TOOL_TIMEOUT_MS`.
   */
  timeoutMs?: number;
}

/** How long a tool may run by default before its call is stopped and answered with a `timeout` error. */
export const DEFAULT_TOOL_TIMEOUT_MS = 300_000;

/**
 * Validates a call's arguments and runs the tool. Never throws: an unknown tool, invalid arguments, a
 * thrown error (whatever was thrown), a timeout and a cancellation all come back as an `error` outcome
 * whose `content` tells the model what went wrong and what to do. Validating the arguments (which may
 * be async, e.g. a zod async refine) and running the tool share one timeout and end on cancel. The tool
 * gets a signal of its own that aborts on cancel and on timeout; a tool or validator that ignores it is
 * abandoned, so neither a cancelled run nor a timed-out call waits on it.
 */
export async function runToolCall(
  registry: ToolLookup,
  call: ToolCallInput,
  context: ToolContext,
  options: RunToolCallOptions = {},
): Promise<ToolCallOutcome> {
  const entry = registry.get(call.toolName);
  if (!entry) {
    const known = registry
      .list()
      .map((registered) => registered.tool.name)
      .join(', ');
    return toolCallFailure(call, 'unknown_tool', `Unknown tool "${call.toolName}". Available tools: ${known}.`);
  }
  if (context.signal.aborted)
    return toolCallFailure(call, 'cancelled', 'The tool call was cancelled before it started.');
  const timeoutMs = toolTimeoutMs(entry.tool, options.timeoutMs);
  const run = new CallRace(context.signal, timeoutMs);
  try {
    // Validation races too: a schema's async refine can hang as well as a tool can, and cancel must end it.
    const step = run.race(() => validateAndExecute(entry, call, new CallContext(context, run), run));
    return stepOutcome(call, isPromiseLike(step) ? await step : step, options.maxResultChars);
  } catch (error) {
    if (context.signal.aborted)
      return toolCallFailure(call, 'cancelled', 'The tool call was cancelled by the user.', error);
    if (run.timedOut) {
      return toolCallFailure(
        call,
        'timeout',
        `Tool "${call.toolName}" did not finish within ${formatDuration(timeoutMs)} and was stopped. ` +
          'Try a smaller piece of work, or another way to reach the goal.',
        error,
      );
    }
    return stepOutcome(call, { kind: 'failed', error });
  }
}

/** How far a call got inside its race, when neither cancel nor timeout stopped it. */
type CallStep =
  | { kind: 'done'; value: unknown; arguments: unknown }
  | { kind: 'invalid'; message: string }
  | { kind: 'validation-failed'; error: unknown }
  | { kind: 'failed'; error: unknown };

function stepOutcome(call: ToolCallInput, step: CallStep, maxResultChars?: number): ToolCallOutcome {
  switch (step.kind) {
    case 'done': {
      const images = isToolResult(step.value) && step.value.images.length > 0 ? step.value.images : undefined;
      return {
        status: 'ok',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        content: stringifyToolResult(step.value, maxResultChars),
        ...(images ? { images } : {}),
        value: step.value,
        arguments: step.arguments,
      };
    }
    case 'invalid':
      return toolCallFailure(
        call,
        'invalid_arguments',
        `Invalid arguments for tool "${call.toolName}": ${step.message}. Fix the arguments and call the tool again.`,
      );
    case 'validation-failed':
      // A schema's own transform or refine may throw; that is the tool failing, not the loop.
      return toolCallFailure(
        call,
        'tool_failed',
        `Tool "${call.toolName}" failed while validating its arguments: ${describeThrown(step.error)}`,
        step.error,
      );
    case 'failed': {
      const code = AgentloopError.isInstance(step.error) ? ` [${step.error.code}]` : '';
      return toolCallFailure(
        call,
        'tool_failed',
        `Tool "${call.toolName}" failed${code}: ${describeThrown(step.error)}`,
        step.error,
      );
    }
  }
}

/**
 * Validates the arguments and runs the tool. Synchronous as long as both are: a tool that returns a value
 * (the loop-control tools, most small tools) is answered without a promise, a timer or a listener.
 */
function validateAndExecute(
  entry: RegisteredTool,
  call: ToolCallInput,
  context: ToolContext,
  run: CallRace,
): MaybePromise<CallStep> {
  let validation: MaybePromise<ArgumentValidation>;
  try {
    validation = entry.validate(call.arguments);
    if (!isPromiseLike(validation)) return execute(entry, validation, context);
  } catch (error) {
    return { kind: 'validation-failed', error };
  }
  return Promise.resolve(validation).then(
    // A cancel or timeout while the arguments were checked has answered the call already: the tool must
    // not start after that.
    (settled) => (run.ended ? { kind: 'failed', error: run.endReason } : execute(entry, settled, context)),
    (error: unknown): CallStep => ({ kind: 'validation-failed', error }),
  );
}

function execute(entry: RegisteredTool, validation: ArgumentValidation, context: ToolContext): MaybePromise<CallStep> {
  if (!validation.ok) return { kind: 'invalid', message: validation.message };
  const done = (value: unknown): CallStep => ({ kind: 'done', value, arguments: validation.value });
  let value: unknown;
  try {
    value = entry.tool.execute(validation.value, context);
    // Inside the try: reading a hostile result's `then` may throw, as `await` would on it.
    if (!isPromiseLike(value)) return done(value);
  } catch (error) {
    return { kind: 'failed', error };
  }
  return Promise.resolve(value).then(done, (error: unknown): CallStep => ({ kind: 'failed', error }));
}

/**
 * The longest timeout a call can have: 2^31 - 1 ms, about 24.8 days. Node's timers keep no more and fire
 * at once (after 1 ms) for anything longer, so a longer timeout waits this long instead.
 */
const MAX_TOOL_TIMEOUT_MS = 2 ** 31 - 1;

function toolTimeoutMs(tool: Tool, fallbackMs = DEFAULT_TOOL_TIMEOUT_MS): number {
  const own = tool.timeoutMs;
  const timeoutMs = typeof own === 'number' && own >= 0 ? own : fallbackMs;
  return Number.isFinite(timeoutMs) ? Math.min(timeoutMs, MAX_TOOL_TIMEOUT_MS) : timeoutMs;
}

/** The longest tool result sent to the model by default, in characters. */
export const DEFAULT_MAX_RESULT_CHARS = 100_000;

/**
 * Turns a tool's return value into the text the model sees: strings as they are, a `toolResult` as its
 * text (its images travel beside it), the rest as JSON (circular references as "[Circular]", bigints as
 * strings). Text longer than `maxChars` is cut with a
 * note of how much was cut, since every later request carries it. Never throws.
 */
export function stringifyToolResult(value: unknown, maxChars = DEFAULT_MAX_RESULT_CHARS): string {
  const text =
    typeof value === 'string'
      ? value
      : value === undefined
        ? '(no output)'
        : isToolResult(value)
          ? value.text || '(no output)'
          : toJson(value);
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
    return json ?? describeThrown(value);
  } catch (error) {
    return `(the result could not be serialized: ${describeThrown(error)})`;
  }
}
