import type { Memory, SessionStore, TokenCounter } from '@agentloop/memory';
import type { PromptBuilder, PromptBuilderOptions } from '@agentloop/prompts';
import type { AnyLLMProvider, ModelSettings } from '@agentloop/spec';
import type { InferToolArguments, SamplingRequest, Tool, ToolParameters, ToolRegistry } from '@agentloop/tools';
import type { ApprovalOption } from '../approvals/resolve-approval.js';
import type { CompactionOption } from '../compaction/compaction-options.js';
import type { Journal } from '../journal/journal.js';
import type { OnMaxIterations } from '../loop/loop-settings.js';
import type { ToolProtocolOption } from '../loop/tool-protocol.js';
import type { SkillsOption } from '../skills/resolve-skills.js';
import type { TracingOption } from '../tracing/tracing-options.js';

export type { OnMaxIterations } from '../loop/loop-settings.js';
export type { ToolProtocolOption } from '../loop/tool-protocol.js';

/** Options of a DefaultAgent. Every field is optional. */
export interface AgentOptions {
  /** The app's instructions, placed in the system prompt after the agent's core guidance. */
  systemPrompt?: string;
  /** Model calls per run before it ends with `max_iterations`. Default 10. */
  maxIterations?: number;
  /**
   * How a run meets `maxIterations`. `wrap-up` (the default): before the last call, the model is told to
   * finish and offered only the loop-control tools; its `task_completion` (what was done, what remains)
   * becomes the `max_iterations` result's payload. `stop`: the last call is like any other and the run
   * ends after it without a word from the model.
   */
  onMaxIterations?: OnMaxIterations;
  /** How tools reach the model. Default `auto`. */
  toolProtocol?: ToolProtocolOption;
  /** Tools to register, or a registry to use as it is. */
  tools?: Iterable<Tool> | ToolRegistry;
  /** The conversation store. Default: a new ConversationMemory. */
  memory?: Memory;
  /** Builds the system prompt. Default: a PromptBuilder with `systemPrompt` and `instructions`. */
  promptBuilder?: PromptBuilder;
  /**
   * The other layers of the default prompt: `baseInstructions`, `developerInstructions`, `projectDir`
   * (its `.agentloop/system_prompt.md` and `AGENTS.md`, read once) and `environment`. Ignored with `promptBuilder`.
   */
  instructions?: Omit<PromptBuilderOptions, 'systemPrompt' | 'sections' | 'skills'>;
  /**
   * Skills in the Agent Skills format: skill objects, and folders of skills (each subfolder with a
   * `SKILL.md`), read once, here. The prompt lists each by name and description; the model loads one with
   * the `load_skill` tool (read-only), and a user's `$name` in a run's input adds that skill's instructions
   * to it. The first skill of a name wins. A folder's broken skill is left out and reported in
   * `agent.skillProblems`. Default: none, and no `load_skill` tool.
   */
  skills?: SkillsOption;
  /**
   * The longest tool result sent to the model, in characters; longer ones are cut with a note. A whole number
   * of at least 1, or `Infinity` (never cut). Default 100,000.
   */
  maxToolResultChars?: number;
  /**
   * How long a tool call may run before it is stopped (its signal aborted) and answered with a `timeout`
   * error, in milliseconds, for tools that set no `timeoutMs` of their own; 0 never times out, and one
   * longer than Node's longest timer (2^31 - 1 ms, about 24.8 days) waits that long. Default 300,000
   * (5 minutes).
   */
  toolTimeoutMs?: number;
  /**
   * The most tool calls of one response that run at once; the others wait, and start in the model's
   * order as running ones finish. A whole number of at least 1, or `Infinity`. Default 4.
   */
  maxParallelTools?: number;
  /**
   * `false`: the model is asked for one tool call per response (OpenAI `parallel_tool_calls: false`,
   * Anthropic `disable_parallel_tool_use`), and the calls of a response that has several anyway run one
   * by one, in the model's order. `true`: several calls run at once, up to `maxParallelTools`. Default: what
   * the model can do (the provider's `capabilities.parallelToolCalls`, from the model table), so a model
   * that cannot, a local one the table does not know among them, is asked for one call per response.
   */
  parallelToolCalls?: boolean;
  /**
   * Decides before each tool call (loop-control calls aside) whether it runs: a mode of the default
   * policy (`read-only`, `ask`, `auto`, `yolo`), `{ mode, rules }`, or an ApprovalPolicy of the app's
   * own. A call the policy asks about emits `approval-requested` and waits for
   * `agent.answerApproval()`. Default: none, so every call runs (an app's own tools are its own).
   */
  approval?: ApprovalOption;
  /**
   * The provider that answers tools' sampling requests (an MCP server asking the client's model for a
   * completion), or a function that picks one from the request's model preferences (`hints` such as
   * `claude-3-5-haiku`, cost, speed and intelligence priorities), at once or as a promise, and returns
   * undefined to use the agent's. Default: the agent's provider. A request runs only once the approval policy allows it.
   */
  samplingProvider?:
    | AnyLLMProvider
    | ((request: SamplingRequest) => AnyLLMProvider | undefined | PromiseLike<AnyLLMProvider | undefined>);
  /** Sampling settings passed to every model call. */
  settings?: ModelSettings;
  /**
   * The model's context window in tokens, instead of the one the provider reports (from its model
   * table). The context figures and compaction go by it. A whole number above 0.
   */
  contextWindow?: number;
  /**
   * When and how the conversation is compacted: before a request that would hold more than `threshold`
   * of the context window (default 0.8), and once after a request the provider rejects as too long, with
   * `compactor` (default: a SummarizingCompactor through the agent's own provider, falling back to dropping
   * the middle). `false`: never on its own; `agent.compact()` still does on demand.
   */
  compaction?: CompactionOption;
  /** Counts tokens, from the provider's reported usage and an estimate. Default: a DefaultTokenCounter. */
  tokenCounter?: TokenCounter;
  /** The session id tools see. Default: `session.id`, or a random UUID. */
  sessionId?: string;
  /**
   * Keeps the conversation in a SessionStore (`@agentloop/sessions` has JSON lines and SQLite ones): each
   * message is saved as the loop adds it and each run is committed when it ends. With the `id` of a stored
   * session, the agent resumes it at its first run (or at `openSession()`): the conversation, the usage
   * totals and a pending `ask_question` come back, and the next run goes on from there. An id the store
   * does not have starts a new session with it. A run whose turn the store cannot save ends with `exit:
   * 'error'` and a SessionStoreError (in `loop-end` too); one whose session cannot be opened rejects with
   * one. Default: nothing is kept.
   */
  session?: AgentSessionOptions;
  /** The directory tools work in. Default: `process.cwd()`. */
  workspace?: string;
  /** A monotonic clock in milliseconds, for durations. Default: `performance.now`. */
  now?: () => number;
  /** Makes run ids. Default: `crypto.randomUUID`. */
  createId?: () => string;
  /**
   * Runs the loop's effects (model calls, compaction's summary call, tool calls, approval decisions, run ids,
   * the clock), so that a durable engine can record them and replay a run on another worker without
   * calling the model or a tool again (see `Journal` for what replays and what does not).
   * `@agentloop/restate` gives each run its own (`RunOptions.journal`). Default: a DirectJournal, which runs
   * them directly with `now` and `createId`.
   */
  journal?: Journal;
  /**
   * OpenTelemetry spans through `@opentelemetry/api`: `invoke_agent` per run, `chat <model>` per model
   * call, `execute_tool <name>` per tool call, with the GenAI semantic conventions' attributes. `true`
   * uses the global tracer provider; `{ tracer, recordContent, agentName }` chooses. Default off, at no cost.
   */
  tracing?: TracingOption;
}

/** Where an agent keeps its session. */
export interface AgentSessionOptions {
  /** The store. */
  store: SessionStore;
  /** The session to resume, or to start with this id. Default: `sessionId`, or a new random one. */
  id?: string;
  /** The title of a session this agent starts. Default: its first input, cut at 80 characters. */
  title?: string;
}

/** A schema for a run's result: a zod schema or a JSON Schema object, describing an object. */
export type OutputSchema = ToolParameters;

/**
 * The type of `task_completion`'s result in a run with this `output`: the zod schema's output type,
 * `Record<string, unknown>` for a JSON Schema, text for a run without one.
 */
export type OutputResult<Output extends OutputSchema | undefined> = [Output] extends [undefined]
  ? string
  : InferToolArguments<Exclude<Output, undefined>>;

/** Options of one run. */
export interface RunOptions<Output extends OutputSchema | undefined = OutputSchema | undefined> {
  /** Cancels the run when aborted, like `agent.cancel()`. */
  signal?: AbortSignal;
  /**
   * The journal of this run, instead of the agent's `journal`: a durable engine makes one per invocation
   * (`@agentloop/restate` one bound to its handler's context).
   */
  journal?: Journal;
  /**
   * The schema of the run's result: `task_completion` then takes a `result` of that schema (validated like
   * any tool argument, a mismatch sent back to the model to correct) and the result's payload is typed by
   * it. Must describe an object. In XML mode the prompt shows it; a wrap-up's summary stays text.
   */
  output?: Output;
}
