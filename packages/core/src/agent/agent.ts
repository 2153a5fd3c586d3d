import type { Memory, StoredSession } from '@agentloop/memory';
import type { AnyLLMProvider, LLMProvider } from '@agentloop/spec';
import type { AskQuestionPayload, ElicitationResult, Tool, ToolRegistry } from '@agentloop/tools';
import type { ApprovalAnswer, ApprovalOption } from '../approvals/index.js';
import type { AgentEvent, AgentEventListener, AgentEventName, AgentEventPayloads } from '../events/index.js';
import type { AgentResult } from '../loop/agent-result.js';
import type { Skill } from '../skills/index.js';
import type { AgentMetrics, ContextUsage } from '../tokens/index.js';
import type { OutputResult, OutputSchema, RunOptions, ToolProtocolOption } from './agent-options.js';

/** What an executor needs from an agent. DefaultAgent implements it. */
export interface Agent {
  /** The tools the model can call. */
  readonly tools: ToolRegistry;
  /** The conversation. */
  readonly memory: Memory;
  /** The model provider. */
  readonly provider: LLMProvider;
  /** The configured tool protocol. */
  readonly toolProtocol: ToolProtocolOption;
  /** The protocol the next model call uses. */
  readonly activeToolProtocol: 'native' | 'xml';
  /** True while a run is going. */
  readonly running: boolean;
  /** The question the last run, or a resumed session, ended with: the next input answers it. */
  readonly pendingQuestion?: AskQuestionPayload | undefined;
  /** Opens the agent's session, when it keeps one (DefaultAgent's `session` option): what it resumed. */
  openSession?(): Promise<StoredSession>;
  /** The skills the model can load and the user can name as `$name` (DefaultAgent's `skills` option). */
  readonly skills?: readonly Skill[];
  /** What the agent's runs did and spent, added up. */
  readonly metrics: AgentMetrics;
  /** How full the context window was after the last model call; undefined before any. */
  readonly contextUsage: ContextUsage | undefined;
  /** Compacts the conversation now; resolves with how it went (`strategy: 'none'`: nothing to compact). */
  compact(options?: { signal?: AbortSignal }): Promise<AgentEventPayloads['compaction-end']>;
  registerTool(tool: Tool): this;
  setProvider(provider: AnyLLMProvider): this;
  setToolProtocol(protocol: ToolProtocolOption): this;
  /** Changes the approval policy from the next tool call; `undefined`: every call runs. */
  setApproval(approval: ApprovalOption | undefined): this;
  /** Answers an `approval-requested` event, a sub-agent's (in a `subagent-event`) too. */
  answerApproval(requestId: string, answer: ApprovalAnswer): void;
  /** Answers an `elicitation-requested` event; an agent whose tools never ask may leave it out. */
  answerElicitation?(requestId: string, result: ElicitationResult): void;
  /** Answers a `subagent-question` event; an agent that runs no sub-agents may leave it out. */
  answerQuestion?(requestId: string, answer: string): void;
  /** Runs the loop on an input; with `options.output`, the result's payload is typed by that schema. */
  run<Output extends OutputSchema | undefined = undefined>(
    input: string,
    options?: RunOptions<Output>,
  ): Promise<AgentResult<OutputResult<Output>>>;
  stream(input: string, options?: RunOptions): AsyncIterable<AgentEvent>;
  cancel(reason?: string): void;
  send(input: string): void;
  on<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this;
  once<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this;
  off<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this;
  onAny(listener: (event: AgentEvent) => void): () => void;
}
