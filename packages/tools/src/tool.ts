import type { JsonSchema, ToolDefinition } from '@agentloop/spec';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ElicitationRequest, ElicitationResult } from './requests/elicitation.js';
import type { SamplingRequest, SamplingResult } from './requests/sampling.js';

export type { JsonSchema, ToolDefinition } from '@agentloop/spec';

/**
 * The server a tool comes from (an MCP server), for the XML protocol, whose calls name a `server_name`
 * and the tool's name there. The tool's own `name` is its native name (`github__create_issue`).
 */
export type ToolServer = NonNullable<ToolDefinition['server']>;

/**
 * A tool's parameter schema: a zod schema (zod 4, or zod 3.24+ which also speaks Standard Schema) or a
 * plain JSON Schema object.
 */
export type ToolParameters = StandardSchemaV1 | JsonSchema;

/** The arguments type a parameter schema describes. */
export type InferToolArguments<P> = P extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<P>
  : Record<string, unknown>;

/** Progress a running tool reports; the loop forwards it as a `tool-progress` event. */
export interface ToolProgress {
  /** A short human-readable status, e.g. `downloaded 3 of 10 files`. */
  message: string;
  /** Completion between 0 and 1, when the tool knows it. */
  fraction?: number;
}

/**
 * What a tool does, for approval policies and sandboxes, which read these and not tool names (MCP's tool
 * annotations `readOnlyHint`, `destructiveHint` and `openWorldHint`). They are the author's word, not a
 * guarantee. A field left out takes the cautious answer, as in MCP: not read-only, destructive, open-world.
 */
export interface ToolAnnotations {
  /** True when the tool changes nothing: it reads, lists or searches. Default: false. */
  readonly readOnly?: boolean;
  /**
   * True when a change it makes may overwrite or delete what was there; false when it only adds. Means
   * nothing for a read-only tool. Default: true.
   */
  readonly destructive?: boolean;
  /**
   * True when it reaches beyond the workspace: the network, other programs, the rest of the machine.
   * Default: true.
   */
  readonly openWorld?: boolean;
}

/** What a tool's `execute` receives beside its arguments. */
export interface ToolContext {
  /** Aborted when the run is cancelled; long-running tools must honour it. */
  signal: AbortSignal;
  /** The id of the agent session the call belongs to. */
  sessionId: string;
  /** The directory the agent works in (the process's cwd unless configured). */
  workspace: string;
  /** The id of this tool call, as the model gave it. */
  toolCallId: string;
  /**
   * A key for this one call, the same each time it runs (a durable run that a worker's death cut off runs
   * the call in flight again on another worker): a tool with side effects (a payment, a message sent)
   * passes it on, or remembers it, so that a call run twice does its effect once. The SHA-256, in hex, of
   * the session id, the run id, the model call's iteration and the tool-call id; different for every call.
   * Set by the agent's loop; absent when the tool is called by hand (`runToolCall`) without one.
   */
  idempotencyKey?: string;
  /** Reports progress to whoever watches the run. Never throws. */
  reportProgress(progress: ToolProgress): void;
  /**
   * Asks the user for input while the call runs (a form, or a page to open), through whatever runs the
   * agent; resolves with `decline` when nobody can answer. Absent when the tool runs outside an agent.
   */
  elicit?(request: ElicitationRequest): Promise<ElicitationResult>;
  /**
   * Asks the agent's model for a completion, once the approval policy (or the user) allows it. Rejects
   * when it is refused or fails, with an error that says why. Absent when the tool runs outside an agent.
   */
  sample?(request: SamplingRequest): Promise<SamplingResult>;
}

/**
 * A tool the model can call. Any object of this shape works, including an instance of a class that
 * implements it. `execute` may return any value: strings go to the model as they are, a `toolResult`
 * (text with images) as text and images, anything else as JSON. Throwing is fine: the error becomes an error result the model sees.
 */
// biome-ignore lint/suspicious/noExplicitAny: `Tool` alone means a tool of any arguments, and a plain-object tool typed `Tool` (JSON Schema, no inference) reads its arguments' fields; `unknown` would refuse that
export interface Tool<Args = any, Result = unknown> {
  /** Unique name the model calls the tool by (letters, digits, `_` and `-`). */
  readonly name: string;
  /** What the tool does and when to use it, for the model. */
  readonly description: string;
  /** The arguments' schema; arguments are validated against it before `execute`. */
  readonly parameters: ToolParameters;
  /**
   * How long a call (validating its arguments, then running) may take before it is stopped (its signal
   * aborted) and answered with a `timeout` error, in milliseconds: a finite number, 0 or more, or
   * registration fails. 0 never times out. The longest timer Node keeps is 2^31 - 1 ms (about 24.8
   * days): a longer timeout waits that long. Default: the agent's `toolTimeoutMs`.
   */
  readonly timeoutMs?: number;
  /** What the tool does (read-only, destructive, open-world); absent means the cautious answer to each. */
  readonly annotations?: ToolAnnotations;
  /**
   * The server the tool comes from, set by an MCP client (`@agentloop/mcp`); absent for the agent's own
   * tools, which the XML protocol calls with `server_name` `local`.
   */
  readonly server?: ToolServer;
  /**
   * True when calls of this tool must not overlap (one shared browser, a build that locks its output):
   * several calls of it in one response run one after another, in the model's order, while other tools'
   * calls may run beside them. Default false.
   */
  readonly sequential?: boolean;
  /** Runs the tool. */
  execute(args: Args, context: ToolContext): Promise<Result> | Result;
}
