import { setMaxListeners } from 'node:events';
import type { Memory, StoredSession } from '@agentloop/memory';
import { ConversationMemory } from '@agentloop/memory';
import type { EnvironmentSnapshot } from '@agentloop/prompts';
import { PromptBuilder, SKILLS_SECTION_ID, skillsSection } from '@agentloop/prompts';
import type { AnyLLMProvider, LLMProvider, Usage } from '@agentloop/spec';
import type { AskQuestionPayload, ElicitationResult, RegisteredTool, SamplingRequest, Tool } from '@agentloop/tools';
import { prepareTools, ToolRegistry } from '@agentloop/tools';
import {
  type ApprovalAnswer,
  ApprovalGate,
  type ApprovalGrant,
  type ApprovalOption,
  type ApprovalPolicy,
  resolveApproval,
} from '../approvals/index.js';
import type { ContextGuard } from '../compaction/context-guard.js';
import { createContextGuard } from '../compaction/create-context-guard.js';
import { AgentUsageError } from '../errors/index.js';
import type { AgentEvent, AgentEventListener, AgentEventName, AgentEventPayloads } from '../events/index.js';
import { AgentEventBus } from '../events/index.js';
import { DirectJournal, type Journal } from '../journal/index.js';
import { guardedJournal } from '../journal/journal-failure.js';
import type { AgentResult } from '../loop/agent-result.js';
import { HistoryCheck } from '../loop/history-check.js';
import type { LoopSettings } from '../loop/loop-settings.js';
import { ModelSelection } from '../loop/model-selection.js';
import { RunControl } from '../loop/run-control.js';
import type { LoopDependencies } from '../loop/run-loop.js';
import { runLoop } from '../loop/run-loop.js';
import { ElicitationDesk, type ToolRequestsHost } from '../requests/index.js';
import { pendingQuestionOf, SessionRecorder } from '../session/index.js';
import {
  registerLoadSkillTool,
  resolveSkills,
  type Skill,
  type SkillProblem,
  withMentionedSkills,
} from '../skills/index.js';
import { type AsToolOptions, SubagentRoutes, subagentAnnotations, subagentTool } from '../subagents/index.js';
import type { AgentMetrics, ContextUsage } from '../tokens/index.js';
import { MetricsTotals } from '../tokens/index.js';
import { openTelemetryLibrary, RunTracer, resolveTracing, type Tracing } from '../tracing/index.js';
import type { Agent } from './agent.js';
import type { AgentOptions, OutputResult, OutputSchema, RunOptions, ToolProtocolOption } from './agent-options.js';
import {
  checkedLoopSettings,
  checkedProvider,
  checkedSessionStore,
  outputTool,
  sessionIdOf,
} from './checked-options.js';
import { eventStream } from './event-stream.js';
import { onAbort } from './on-abort.js';

/** The policy of an agent whose approval was removed with `setApproval(undefined)`: every call runs. */
const ALLOW_ALL: ApprovalPolicy = { decide: () => ({ action: 'allow' }) };

/**
 * Adds the skills listing to an app's own prompt builder, before the loop guidance as in the default
 * prompt, unless the app placed a skills section itself.
 */
function listSkills(builder: PromptBuilder, skills: readonly Skill[]): void {
  const ids = builder.sections.map((section) => section.id);
  if (ids.includes(SKILLS_SECTION_ID)) return;
  const guidance = ids.indexOf('agent-loop-guidance');
  builder.use(skillsSection(skills), guidance > 0 ? { after: ids[guidance - 1] as string } : {});
}

/**
 * An agent: a provider, a tool registry and a conversation, run in a loop until the model calls a
 * loop-control tool. The loop itself is `runLoop`; this class holds the state between runs.
 */
export class DefaultAgent implements Agent {
  readonly tools: ToolRegistry;
  readonly memory: Memory;
  readonly prompts: PromptBuilder;
  readonly sessionId: string;
  /** The skills the model can load (`load_skill`) and the user can name (`$name`), from `options.skills`. */
  readonly skills: readonly Skill[];
  /** The skills of `options.skills`' folders that could not be loaded: each file and what is wrong. */
  readonly skillProblems: readonly SkillProblem[];
  readonly #selection: ModelSelection;
  readonly #options: AgentOptions;
  readonly #events = new AgentEventBus();
  readonly #queuedInput: string[] = [];
  /** The loop's settings of `options`, checked once, with their defaults. */
  readonly #settings: LoopSettings;
  /** The run going on, with its controller (for cancel). */
  #run: { control: RunControl; controller: AbortController } | undefined;
  readonly #historyCheck = new HistoryCheck();
  /** Knows how full the context is; compacts the memory. */
  readonly #context: ContextGuard;
  /** The figures of every run, and of compactions between runs. */
  readonly #metrics = new MetricsTotals();
  /** Aborts the compaction `compact()` is making, if any. */
  #compaction: AbortController | undefined;
  readonly #tracing: Tracing | undefined;
  /** True once a stored session's usage was added to the totals (see the session recorder's onOpen). */
  #savedUsageCounted = false;
  /** Asks the approval policy before tool calls; keeps the session's grants. Absent: every call runs. */
  #approvals: ApprovalGate | undefined;
  /** Keeps the conversation in the session store of `options.session`. */
  readonly #session: SessionRecorder | undefined;
  #pendingQuestion: AskQuestionPayload | undefined;
  /** Where answers to the approval requests and questions of this agent's sub-agents go. */
  readonly #subagentRoutes = new SubagentRoutes();
  /** The journal of runs that name none of their own: the options', or one that runs effects directly. */
  readonly #journal: Journal;
  /** Brings tools' requests for the user's input to `elicitation-requested`, and its answers back. */
  readonly #elicitations = new ElicitationDesk();

  constructor(provider: AnyLLMProvider, options: AgentOptions = {}) {
    this.#selection = new ModelSelection(checkedProvider(provider), options.toolProtocol ?? 'auto');
    this.#options = options;
    this.tools = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools ?? []);
    const { skills, problems } = resolveSkills(options.skills);
    this.skills = skills;
    this.skillProblems = problems;
    if (skills.length > 0) registerLoadSkillTool(this.tools, skills);
    this.prompts =
      options.promptBuilder ??
      new PromptBuilder({ ...options.instructions, systemPrompt: options.systemPrompt, skills });
    if (options.promptBuilder && skills.length > 0) listSkills(options.promptBuilder, skills);
    this.sessionId = sessionIdOf(options);
    const memory = options.memory ?? new ConversationMemory();
    this.#session = options.session && this.#sessionRecorder(options, memory);
    this.memory = this.#session?.memory ?? memory;
    // Registered first, so that the question is known before any listener of the app can start the next run.
    this.#events.on('loop-end', ({ result }) => {
      this.#pendingQuestion = result.exit === 'ask_question' ? result.payload : undefined;
    });
    this.#tracing = resolveTracing(options.tracing);
    if (options.approval !== undefined) this.#approvals = new ApprovalGate(resolveApproval(options.approval));
    this.#settings = checkedLoopSettings(options);
    this.#context = createContextGuard(options, this.memory, this.#events);
    this.#journal =
      options.journal ??
      new DirectJournal({
        ...(options.now ? { now: options.now } : {}),
        ...(options.createId ? { createId: options.createId } : {}),
      });
  }

  /**
   * What the agent's runs did and spent, added up: tokens by kind, model and tool calls and their time,
   * retries, compactions (those of `compact()` too), wall time, the cost where the models have prices, and
   * how full the context is. A run's own figures are its result's `metrics`.
   */
  get metrics(): AgentMetrics {
    return this.#metrics.agentMetrics();
  }

  /** How full the context window was after the last model call; undefined before any. */
  get contextUsage(): ContextUsage | undefined {
    return this.#context.last;
  }

  /**
   * Compacts the conversation now, with the agent's compactor, and resolves with how it went (as the
   * `compaction-end` event has it). Rejects with `agent_busy` during a run (a run compacts by itself before
   * a request that would not fit), and with a `compaction_failed` AgentloopError when the compactor failed,
   * leaving the conversation as it was. `agent.cancel()` or `options.signal` stops it. When there was
   * nothing to compact (a short conversation), it resolves with a no-op: `strategy: 'none'`, no `error`,
   * `tokensAfter` equal to `tokensBefore` and `messagesAfter` to `messagesBefore`; it is not counted in
   * `metrics.compactions`.
   */
  async compact(options: { signal?: AbortSignal } = {}): Promise<AgentEventPayloads['compaction-end']> {
    if (this.running) {
      throw new AgentUsageError(
        'A run is going: it compacts by itself before a request that would not fit. Compact after it ends.',
        'agent_busy',
      );
    }
    const controller = new AbortController();
    const stopForwarding = options.signal
      ? onAbort(options.signal, () => controller.abort(options.signal?.reason))
      : () => {};
    if (options.signal?.aborted) controller.abort(options.signal.reason);
    this.#compaction = controller;
    try {
      const {
        pricing,
        retained: _,
        ...report
      } = await this.#context.compact('manual', this.provider, {
        signal: controller.signal,
        journal: this.#journal,
      });
      if (report.strategy !== 'none') this.#metrics.compactions++;
      if (report.usage) this.#metrics.spend(report.usage, pricing);
      return report;
    } finally {
      stopForwarding();
      this.#compaction = undefined;
    }
  }

  /** The model provider. */
  get provider(): LLMProvider {
    return this.#selection.provider;
  }

  /**
   * The question the last run ended with (an `ask_question` exit), or the one a resumed session was left
   * waiting on: the next run's input answers it.
   */
  get pendingQuestion(): AskQuestionPayload | undefined {
    return this.#pendingQuestion;
  }

  /**
   * The token usage of the session's runs that were saved, those before it was resumed included; undefined
   * for an agent without `options.session`.
   */
  get sessionUsage(): Usage | undefined {
    return this.#session?.usage;
  }

  /**
   * Opens the agent's session (`options.session`): takes its write lock, and restores its conversation, its
   * usage totals and a pending question, then resolves with what the store held. The first run does this by
   * itself; call it to show a resumed session before then. Rejects with a SessionStoreError
   * (`session_locked` while another process has the session open, `invalid_session` for one that cannot be
   * read), or with an AgentUsageError for an agent without a session.
   */
  openSession(): Promise<StoredSession> {
    if (!this.#session) {
      return Promise.reject(
        new AgentUsageError('This agent keeps no session: create it with `session: { store, id }`.', 'invalid_usage'),
      );
    }
    return this.#session.open();
  }

  /**
   * Waits for the session's pending writes and gives its write lock up, so that another process may open
   * it; a later run takes it again. Does nothing for an agent without a session. Throws `agent_busy` during a run.
   */
  async closeSession(): Promise<void> {
    if (this.running) {
      throw new AgentUsageError(
        'A run is going; cancel it or wait for it to end before closing the session.',
        'agent_busy',
      );
    }
    await this.#session?.close();
  }

  /** True while a run is going, or `compact()` is compacting. */
  get running(): boolean {
    return this.#compaction !== undefined || (this.#run !== undefined && !this.#run.control.settled);
  }

  /** The protocol the next model call uses (`auto` resolved for the current provider). */
  get activeToolProtocol(): 'native' | 'xml' {
    return this.#selection.resolveProtocol().name;
  }

  /** The configured tool protocol (`auto`, `native` or `xml`). */
  get toolProtocol(): ToolProtocolOption {
    return this.#selection.toolProtocol;
  }

  /** Adds a tool. Throws on a duplicate name or a schema that does not describe an object. */
  registerTool(tool: Tool): this {
    this.tools.register(tool);
    return this;
  }

  /** Switches the provider (and so the model); takes effect at the next model call. */
  setProvider(provider: AnyLLMProvider): this {
    this.#selection.provider = checkedProvider(provider);
    return this;
  }

  /** Switches the tool protocol; takes effect at the next model call. */
  setToolProtocol(protocol: ToolProtocolOption): this {
    this.#selection.toolProtocol = protocol;
    return this;
  }

  /**
   * Changes the approval policy (a mode, `{ mode, rules }` or a policy); it applies from the next tool
   * call. Grants the user gave for the session stay. `undefined` removes the policy: every call runs.
   */
  setApproval(approval: ApprovalOption | undefined): this {
    // A gate that may have requests waiting is kept (with a policy that allows all), so they can still be answered.
    if (approval === undefined) {
      if (this.#approvals) this.#approvals.policy = ALLOW_ALL;
    } else if (this.#approvals) this.#approvals.policy = resolveApproval(approval);
    else this.#approvals = new ApprovalGate(resolveApproval(approval));
    return this;
  }

  /**
   * The grants the user gave with `allow-session` so far, in order; empty for an agent without an approval
   * policy. A durable run keeps them in its session's state and hands them to the next run's agent with
   * `addApprovalGrants`, so that they hold on whichever worker runs it.
   */
  get approvalGrants(): readonly ApprovalGrant[] {
    return this.#approvals?.grants ?? [];
  }

  /**
   * Adds grants given before (`approvalGrants` of an earlier agent of the session): the calls they cover run
   * without asking. Throws an AgentUsageError (`invalid_usage`) on an agent without an approval policy,
   * where no call is asked about.
   */
  addApprovalGrants(grants: readonly ApprovalGrant[]): this {
    if (!this.#approvals) {
      throw new AgentUsageError(
        'This agent has no approval policy, so grants would change nothing: create it with `approval`, or call setApproval() first.',
        'invalid_usage',
      );
    }
    for (const grant of grants) {
      if (
        typeof grant?.toolName !== 'string' ||
        (grant.commandPrefix !== undefined && typeof grant.commandPrefix !== 'string')
      ) {
        throw new AgentUsageError(
          `An approval grant is { toolName: string, commandPrefix?: string }, got ${JSON.stringify(grant)}.`,
          'invalid_usage',
        );
      }
    }
    this.#approvals.addGrants(grants);
    return this;
  }

  /**
   * Answers an `approval-requested` event (a sub-agent's, in a `subagent-event`, too): run the call once,
   * allow it for the session, or refuse it. Throws an AgentUsageError: `unknown_approval` when no request
   * with that id is waiting, `invalid_usage` for a decision that is none of the choices (the request
   * still waits for a good answer).
   */
  answerApproval(requestId: string, answer: ApprovalAnswer): void {
    // A sub-agent's request, shown in a `subagent-event`, is answered here and passed down to it.
    if (this.#subagentRoutes.answerApproval(requestId, answer)) return;
    if (!this.#approvals) {
      throw new AgentUsageError(
        `No approval request "${requestId}" is waiting: this agent has no approval policy.`,
        'unknown_approval',
      );
    }
    this.#approvals.answer(requestId, answer);
  }

  /**
   * Answers an `elicitation-requested` event (a sub-agent's, in a `subagent-event`, too): accept with the form's values (empty fields take the
   * schema's defaults; `{}` for a URL), decline or cancel. Throws an AgentUsageError:
   * `unknown_elicitation` when no request with that id is waiting, `invalid_usage` for an answer that
   * leaves a required field empty or has another action (the request still waits for a good answer).
   */
  answerElicitation(requestId: string, result: ElicitationResult): void {
    // A sub-agent's request, shown in a `subagent-event`, is answered here and passed down to it.
    if (this.#subagentRoutes.answerElicitation(requestId, result)) return;
    this.#elicitations.answer(requestId, result);
  }

  /**
   * Answers a `subagent-question`: the sub-agent that asked goes on with `answer`. Throws an
   * AgentUsageError (`unknown_question`) when no question with that id is waiting.
   */
  answerQuestion(requestId: string, answer: string): void {
    if (this.#subagentRoutes.answerQuestion(requestId, answer)) return;
    throw new AgentUsageError(
      `No sub-agent question "${requestId}" is waiting: it was answered already, or its call ended.`,
      'unknown_question',
    );
  }

  /**
   * This agent as a tool of another: the tool takes one argument, `task`, and each call runs it in a fresh
   * conversation with this agent's configuration (provider, tools, prompt, limits, approval policy), so
   * several calls can run at once under the caller's `maxParallelTools`. Its `task_completion` result (or
   * its `output` object) is the tool's value. Its events reach the caller's listeners as `subagent-event`s,
   * its usage and cost are added to the caller's run, the caller's cancel and the tool's timeout stop it,
   * and its approval requests and questions go to the caller's executor (see `questions`).
   */
  asTool<Output extends OutputSchema | undefined = undefined>(options: AsToolOptions<Output>): Tool<{ task: string }> {
    return subagentTool({
      ...options,
      annotations: options.annotations ?? subagentAnnotations(this.tools, this.#approvals !== undefined),
      createAgent: () => this.#subagent(),
    });
  }

  /** A fresh agent with this one's configuration as it is now, for one call of `asTool`'s tool. */
  #subagent(): DefaultAgent {
    const {
      memory: _memory,
      session: _session,
      sessionId: _sessionId,
      approval: _approval,
      // The sub-agent runs inside the caller's tool call, whose journal step records its result: its own
      // effects run directly (a durable engine cannot nest steps).
      journal: _journal,
      ...options
    } = this.#options;
    return new DefaultAgent(this.provider, {
      ...options,
      tools: this.tools,
      promptBuilder: this.prompts,
      toolProtocol: this.toolProtocol,
      // The policy as setApproval left it; the session's grants stay this agent's own.
      ...(this.#approvals ? { approval: this.#approvals.policy } : {}),
    });
  }

  /**
   * Runs the loop on an input and resolves with how it ended. A second run continues the conversation
   * (its input answers an `ask_question`). With `options.output`, `task_completion`'s result must match
   * that schema and the result's payload is typed by it. Never rejects for model or tool failures: those
   * end the run with `exit: 'error'`. Rejects only for misuse: a run already going, empty input, an
   * output schema it cannot use; and with the journal's own error when the run's journal fails (a durable
   * engine's, for the engine to handle: the run has no result then).
   */
  async run<Output extends OutputSchema | undefined = undefined>(
    input: string,
    options: RunOptions<Output> = {},
  ): Promise<AgentResult<OutputResult<Output>>> {
    if (this.running) {
      throw new AgentUsageError(
        'A run is already going; use agent.send() to add input to it, or wait for it to end.',
        'agent_busy',
      );
    }
    if (typeof input !== 'string' || input.trim() === '') {
      throw new AgentUsageError('The input of a run must be non-empty text.', 'empty_input');
    }
    const taskCompletion = options.output === undefined ? undefined : outputTool(options.output);
    const controller = new AbortController();
    // Every provider attempt and every running tool call listens to the run's signal: ten parallel tool
    // calls are no leak.
    setMaxListeners(0, controller.signal);
    // AbortSignal.any would keep a reference from a long-lived user signal to every run's signal; a
    // listener removed when the run settles does not.
    const userSignal = options.signal;
    let stopForwarding = () => {};
    if (userSignal?.aborted) controller.abort(userSignal.reason);
    else if (userSignal) stopForwarding = onAbort(userSignal, () => controller.abort(userSignal.reason));
    const control = new RunControl({
      selection: this.#selection,
      queuedInput: this.#queuedInput,
      signal: controller.signal,
    });
    const run = { control, controller };
    this.#run = run;
    try {
      // The session is opened (resumed) before the run's first message; the loop saves its turn before loop-end.
      await Promise.all([this.#session?.beginTurn(), this.#loadRunLibraries()]);
      const journal = options.journal ?? this.#journal;
      // A DirectJournal's steps are their effects: nothing of its own can fail, so it needs no guard.
      const dependencies = this.#loopDependencies(
        taskCompletion,
        journal instanceof DirectJournal ? journal : guardedJournal(journal),
      );
      const result = await runLoop(dependencies, control, withMentionedSkills(input, this.skills));
      // The loop is not generic: with an output schema, the result it ended with was validated against
      // that schema (taskCompletionWithOutput), without one it is text (the built-in task_completion).
      return result as AgentResult<OutputResult<Output>>;
    } finally {
      stopForwarding();
      // A loop-end listener may already have started the next run.
      if (this.#run === run) this.#run = undefined;
    }
  }

  #sessionRecorder(options: AgentOptions, memory: Memory): SessionRecorder {
    return new SessionRecorder({
      store: checkedSessionStore(options),
      sessionId: this.sessionId,
      memory,
      create: {
        workspace: options.workspace ?? process.cwd(),
        model: this.provider.capabilities.modelId,
        ...(options.session?.title === undefined ? {} : { title: options.session.title }),
      },
      onOpen: (stored) => {
        this.#pendingQuestion ??= stored.pendingQuestion;
        // The session's earlier tokens count in the agent's totals, once: opened again after a close, its
        // saved usage includes this agent's own runs. What they cost was not saved.
        if (this.#savedUsageCounted) return;
        this.#savedUsageCounted = true;
        this.#metrics.addSavedUsage(stored.usage);
      },
    });
  }

  /** Commits a run's turn before its `loop-end`: the loop ends the run with `error` when it fails. */
  #saveTurn(session: SessionRecorder, result: AgentResult<unknown>): Promise<void> {
    return session.saveTurn({
      usage: result.usage,
      exit: result.exit,
      model: this.provider.capabilities.modelId,
      ...(result.exit === 'ask_question' ? { pendingQuestion: pendingQuestionOf(result.payload) } : {}),
    });
  }

  /**
   * Imports what this run's synchronous code will need (the XML protocol's parsers, the OpenTelemetry
   * API), here where the run can wait: an app's bundler follows these imports, where a load on use would
   * be a `require` it cannot see. What only some runs need (a repair in native mode) is left to load on use.
   */
  #loadRunLibraries(): Promise<unknown> {
    const loads: Promise<unknown>[] = [];
    if (this.#tracing) loads.push(openTelemetryLibrary.load());
    if (this.#selection.resolveProtocol().name === 'xml') loads.push(prepareTools({ xml: true, schemas: false }));
    return Promise.all(loads);
  }

  #loopDependencies(taskCompletion: RegisteredTool | undefined, journal: Journal): LoopDependencies {
    const options = this.#options;
    // The default journal makes ids with the options' `createId`; a durable one records the ids it makes.
    const runId = journal.randomId();
    const session = this.#session;
    return {
      tools: this.tools,
      memory: this.memory,
      prompts: this.prompts,
      events: this.#events,
      ...this.#settings,
      ...(taskCompletion ? { taskCompletion } : {}),
      historyCheck: this.#historyCheck,
      context: this.#context,
      sessionMetrics: this.#metrics,
      subagentRoutes: this.#subagentRoutes,
      requests: this.#toolRequestsHost(),
      sessionId: this.sessionId,
      workspace: options.workspace ?? process.cwd(),
      now: options.now ?? (() => performance.now()),
      journal,
      runId,
      ...(this.#approvals ? { approvals: this.#approvals } : {}),
      ...(session ? { saveTurn: (result: AgentResult<unknown>) => this.#saveTurn(session, result) } : {}),
      ...(this.#tracing
        ? { tracer: new RunTracer(this.#tracing, { runId, sessionId: this.sessionId, tools: this.tools }) }
        : {}),
    };
  }

  #toolRequestsHost(): ToolRequestsHost {
    const option = this.#options.samplingProvider;
    const fixed = option && typeof option !== 'function' ? checkedProvider(option) : undefined;
    return {
      elicitations: this.#elicitations,
      samplingProvider: async (request: SamplingRequest) => {
        if (fixed) return fixed;
        const chosen = typeof option === 'function' ? await option(request) : undefined;
        return chosen ? checkedProvider(chosen) : this.provider;
      },
    };
  }

  /** The same run as `run`, as an async iterable of its events, ending with `loop-end`. Breaking out of the loop cancels the run. */
  stream(input: string, options: RunOptions = {}): AsyncIterable<AgentEvent> {
    return eventStream(
      this.#events,
      () => this.run(input, options),
      () => this.cancel(),
    );
  }

  /** Cancels the running run, if any (the model stream and running tools are aborted), or a `compact()`. */
  cancel(reason?: string): void {
    this.#compaction?.abort(reason ?? 'cancelled');
    if (this.running) this.#run?.controller.abort(reason ?? 'cancelled');
  }

  /**
   * Tells the model the environment changed (cwd, approval policy, sandbox …). The system prompt stays as
   * it is, so providers keep their prompt cache: only the changed fields go to the model, as an
   * `<environment_diff>` user message at the next model call. Returns false when nothing changed or the
   * prompt has no environment section.
   */
  updateEnvironment(next: EnvironmentSnapshot): boolean {
    const diff = this.prompts.environment?.diff(next);
    if (!diff) return false;
    this.#queuedInput.push(diff);
    return true;
  }

  /** Queues input; it reaches the model at the next iteration of the running run, or with the next run. */
  send(input: string): void {
    this.#queuedInput.push(withMentionedSkills(input, this.skills));
    this.#events.emit({ type: 'input-queued', text: input });
  }

  on<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this {
    this.#events.on(name, listener);
    return this;
  }

  once<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this {
    this.#events.once(name, listener);
    return this;
  }

  off<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this {
    this.#events.off(name, listener);
    return this;
  }

  /** Listens to every event; returns a function that stops listening. */
  onAny(listener: (event: AgentEvent) => void): () => void {
    return this.#events.onAny(listener);
  }
}
