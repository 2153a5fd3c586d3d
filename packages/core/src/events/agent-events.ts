import type { CompactionKept, CompactionReason } from '@agentloop/memory';
import type { AgentloopError, FinishReason, Usage } from '@agentloop/spec';
import type {
  AskQuestionPayload,
  ConversePayload,
  ElicitationResult,
  JsonSchema,
  TaskCompletionPayload,
  ToolAnnotations,
  ToolFailureCode,
  ToolProgress,
} from '@agentloop/tools';
import type { ApprovalChoice, SamplingApproval } from '../approvals/approval-policy.js';
import type { AgentResult } from '../loop/agent-result.js';
import type { ContextUsage } from '../tokens/context-usage.js';

/** The payload of each event, by name, as the loop emits it (the bus adds `eventId`). */
export interface AgentEventPayloads {
  /** A run began. */
  'loop-start': { type: 'loop-start'; runId: string; input: string };
  /** A model call is about to be made (1 for the first). */
  'loop-iteration': { type: 'loop-iteration'; runId: string; iteration: number };
  /**
   * The run ended; always the last event of a run. The result's task_completion result is text, or for
   * a run with an `output` schema a value of it (`agent.run` resolves with it typed).
   */
  'loop-end': { type: 'loop-end'; runId: string; result: AgentResult<unknown> };
  /**
   * `maxIterations` model calls were made without an exit. `ending` says how: `wrap-up` when the last call
   * was the wrap-up step (`summary` is the model's `task_completion` there, if it made one), `stop` when
   * the run stopped after an ordinary call.
   */
  'loop-max-reached': {
    type: 'loop-max-reached';
    runId: string;
    iterations: number;
    maxIterations: number;
    ending: 'wrap-up' | 'stop';
    summary?: TaskCompletionPayload;
  };
  /**
   * The next model call is the run's last (`onMaxIterations: 'wrap-up'`): the model is told to finish and
   * offered only the loop-control tools. Comes after that call's `loop-iteration`.
   */
  'loop-wrap-up': { type: 'loop-wrap-up'; runId: string; iteration: number; maxIterations: number };
  /** Reasoning began. */
  'thinking-start': { type: 'thinking-start'; iteration: number };
  /** A piece of reasoning. */
  'thinking-content': { type: 'thinking-content'; iteration: number; text: string };
  /** Reasoning ended; `text` is all of it. */
  'thinking-end': { type: 'thinking-end'; iteration: number; text: string };
  /** Text for the user began. */
  'message-start': { type: 'message-start'; iteration: number };
  /** A piece of text for the user. */
  'message-content': { type: 'message-content'; iteration: number; text: string };
  /** Text for the user ended; `text` is all of it. */
  'message-end': { type: 'message-end'; iteration: number; text: string };
  /** The model began a tool call whose arguments are still streaming (native providers that say so). */
  'tool-call-start': { type: 'tool-call-start'; iteration: number; toolCallId: string; name: string };
  /** The model called a tool; it is about to run. */
  'tool-call': { type: 'tool-call'; iteration: number; toolCallId: string; name: string; arguments: unknown };
  /**
   * A tool call waits for the user's approval (the approval policy asked). Answer it with
   * `agent.answerApproval(requestId, answer)`, using one of `choices`; a cancel of the run refuses it.
   * `command` is the call's command, for tools that run one.
   */
  'approval-requested': {
    type: 'approval-requested';
    iteration: number;
    requestId: string;
    toolCallId: string;
    name: string;
    arguments: unknown;
    command?: string;
    /** What the tool declares, with the cautious answer for each field it leaves out. */
    annotations: Required<ToolAnnotations>;
    /** Why the policy asks, e.g. `write_file can change things`. */
    reason: string;
    choices: readonly ApprovalChoice[];
    /**
     * `sampling` when the request is not the call itself but a completion of the model the running call
     * asks for (an MCP server's sampling); absent for a tool call.
     */
    kind?: 'sampling';
    /** What the sampling request asks the model: messages, system prompt, maxTokens, model preferences. */
    sampling?: SamplingApproval;
  };
  /** An approval request was answered, or refused by a cancel (`cancelled`). */
  'approval-resolved': {
    type: 'approval-resolved';
    iteration: number;
    requestId: string;
    toolCallId: string;
    name: string;
    decision: ApprovalChoice | 'cancelled';
  };
  /**
   * A running tool asks the user for input (an MCP server's elicitation): the fields of `schema` (a flat
   * JSON Schema object, `mode: 'form'`) or to open `url` (`mode: 'url'`). Answer it with
   * `agent.answerElicitation(requestId, result)`: accept (with the form's values; empty fields take the
   * schema's defaults), decline or cancel. A cancel of the run cancels it. When nothing listens to this
   * event, the request is declined at once.
   */
  'elicitation-requested': {
    type: 'elicitation-requested';
    iteration: number;
    requestId: string;
    /** The tool call that asks, and its tool's name. */
    toolCallId: string;
    name: string;
    /** The MCP server that asks. */
    server?: string;
    message: string;
    mode: 'form' | 'url';
    /** The form, in form mode. */
    schema?: JsonSchema;
    /** The page to open, in URL mode. */
    url?: string;
  };
  /** An elicitation request was answered, or cancelled by a cancel of the run or of its call. */
  'elicitation-resolved': {
    type: 'elicitation-resolved';
    iteration: number;
    requestId: string;
    toolCallId: string;
    name: string;
    action: ElicitationResult['action'];
  };
  /** A running tool reported progress. */
  'tool-progress': {
    type: 'tool-progress';
    iteration: number;
    toolCallId: string;
    name: string;
    progress: ToolProgress;
  };
  /** A tool call succeeded. */
  'tool-result': {
    type: 'tool-result';
    iteration: number;
    toolCallId: string;
    name: string;
    /** The text the model sees. */
    content: string;
    /** What `execute` returned. */
    value: unknown;
    durationMs: number;
  };
  /** A tool call failed; the model sees `content`. */
  'tool-result-error': {
    type: 'tool-result-error';
    iteration: number;
    toolCallId: string;
    name: string;
    content: string;
    code: ToolFailureCode;
    durationMs: number;
  };
  /** The model answered without a tool call; it is reminded in the next request. */
  'no-tool-call': { type: 'no-tool-call'; iteration: number; text: string; consecutive: number };
  /** The model called `task_completion`; `result` is text, or a value of the run's `output` schema. */
  'task-complete': { type: 'task-complete'; iteration: number } & TaskCompletionPayload<unknown>;
  /** The model called `ask_question`. */
  'question-asked': { type: 'question-asked'; iteration: number } & AskQuestionPayload;
  /** The model called `converse` (or answered three times in a row without a tool call). */
  converse: { type: 'converse'; iteration: number } & ConversePayload;
  /**
   * A model call finished; `usage` is the call's, `total` the run's so far, `sessionTotal` the agent's over
   * all its runs so far. `context` is how full the context window is after the call. A call that answered
   * a tool's sampling request (an MCP server's) has `sampling`, and is announced after its tool call
   * ended; its tokens count in the totals, but it leaves `context` as it was.
   */
  usage: {
    type: 'usage';
    iteration: number;
    usage: Usage;
    total: Usage;
    sessionTotal: Usage;
    context: ContextUsage;
    finishReason: FinishReason;
    /** Set for a sampling request's call: the tool call that made it, and the MCP server that asked. */
    sampling?: { toolCallId: string; name: string; server?: string };
  };
  /**
   * The conversation is about to be compacted: the next request would pass the compaction threshold
   * (`threshold`), the provider rejected one as too long (`context_length`), or `agent.compact()` asked.
   * `iteration` is the model call it comes before; absent for `agent.compact()` between runs.
   */
  'compaction-start': {
    type: 'compaction-start';
    iteration?: number;
    reason: CompactionReason;
    /** Tokens of the request before compaction: system prompt, tools and messages. */
    tokensBefore: number;
    windowTokens: number;
    /** Messages in the conversation before compaction. */
    messages: number;
  };
  /**
   * A compaction ended. `strategy` says how (`summary`, or `drop-middle` when the summary failed or did
   * not fit, with `fallbackReason`); `kept` what stayed whole. With `error` it failed and the conversation
   * was left as it was. `strategy: 'none'` without `error` is a no-op: there was nothing to compact (a short
   * conversation), the conversation is as it was and `tokensAfter` equals `tokensBefore`.
   */
  'compaction-end': {
    type: 'compaction-end';
    iteration?: number;
    reason: CompactionReason;
    strategy: string;
    tokensBefore: number;
    tokensAfter: number;
    messagesBefore: number;
    messagesAfter: number;
    kept: CompactionKept;
    summarizedMessages: number;
    droppedMessages: number;
    droppedToolResults: number;
    /** Why the compactor fell back from its first strategy. */
    fallbackReason?: string;
    /** Tokens the compaction spent (a summarising call). */
    usage?: Usage;
    error?: AgentloopError;
  };
  /** The provider retries a failed call. With `discardOutput`, drop what this step showed so far. */
  retry: {
    type: 'retry';
    iteration: number;
    attempt: number;
    delayMs: number;
    error: AgentloopError;
    discardOutput: boolean;
  };
  /** The session switched tool protocol (a server rejected native tools under `toolProtocol: 'auto'`). */
  'protocol-switch': { type: 'protocol-switch'; iteration: number; from: 'native'; to: 'xml'; reason: string };
  /** Input sent with `agent.send()` was queued, or reached the model. */
  'input-queued': { type: 'input-queued'; text: string };
  'input-delivered': { type: 'input-delivered'; iteration: number; text: string };
  /**
   * An event of a sub-agent (an agent run as a tool, `agent.asTool()`), wrapped so that it never passes for
   * the parent's own: a child's `loop-end` does not end the parent's stream. `path` is the chain of calls
   * from this agent down to the one that emitted `event` (one step for a child, two for a grandchild);
   * `event` is never itself a `subagent-event`. Approval ids in it are this agent's: answer a child's
   * `approval-requested` with this agent's `answerApproval`.
   */
  'subagent-event': { type: 'subagent-event'; path: readonly SubagentStep[]; event: AgentEvent };
  /**
   * A sub-agent asked a question (`asTool` with `questions: 'ask-user'`): answer it with
   * `agent.answerQuestion(requestId, answer)`; the sub-agent goes on with the answer. A cancel of the run
   * drops it. When nothing listens to this event, the sub-agent's call fails with the question instead.
   */
  'subagent-question': {
    type: 'subagent-question';
    path: readonly SubagentStep[];
    requestId: string;
    question: string;
    suggestions?: string[];
  };
  /** A listener threw; the run goes on. */
  'listener-error': { type: 'listener-error'; event: string; error: unknown };
}

/** One call on the way down to a sub-agent: the tool the parent called, and the call's id. */
export interface SubagentStep {
  toolName: string;
  toolCallId: string;
}

/** What every event carries beside its payload. */
export interface AgentEventEnvelope {
  /**
   * The event's id: unique among the agent's events, and the same when a durable run is replayed (an event
   * may then be delivered again), so a listener deduplicates by it. Within a run it is
   * `<runId>/<scope>/<type>/<n>`: the scope is `run` for the loop's own events, the journal step for events
   * a step emits while it runs (`model:<iteration>` for a model call's text, thinking and retries), and
   * `tool:<iteration>:<toolCallId>` for a tool call's (approval, progress, result, and a sub-agent's events);
   * `n` counts the events of that type within the scope. Between runs (`agent.send()`, `agent.compact()`) it is a
   * random id. Always set on the events an agent emits; optional in the type so that an executor can make
   * events of its own (a stored session shown again) without inventing ids.
   */
  readonly eventId?: string;
}

/** The payload of each event, by name. Every payload also carries its own `type` and an `eventId`. */
export type AgentEventMap = {
  [Name in keyof AgentEventPayloads]: AgentEventPayloads[Name] & AgentEventEnvelope;
};

/** The name of an agent event. */
export type AgentEventName = keyof AgentEventMap;

/** Any agent event, discriminated by `type`. */
export type AgentEvent = AgentEventMap[AgentEventName];

/** A listener of one event. */
export type AgentEventListener<Name extends AgentEventName> = (event: AgentEventMap[Name]) => void;
