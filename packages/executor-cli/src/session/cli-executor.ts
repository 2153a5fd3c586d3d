import type { Agent, AgentResult, LLMProvider } from '@agentloop/core';
import type { ApprovalControl } from '../approval/index.js';
import { modeOnlyApprovalControl } from '../approval/index.js';
import { createPromptCompleter, sessionCompletionSources } from '../completion/index.js';
import { mcpServersOf } from '../mcp/mcp-session-plugin.js';
import { attachedCutNote, ResourceMentions } from '../mcp/resource-mentions.js';
import { createModelSwitcher } from '../provider/index.js';
import type { MarkdownBlocks, Style, TerminalOutput } from '../render/index.js';
import {
  createStyle,
  describeError,
  loadMarkdownBlocks,
  loadTextWidth,
  outputWidth,
  plainMarkdown,
  renderMarkdown,
  renderResult,
  Spinner,
  stripControls,
  terminalFeatures,
  xmlProtocolChosenLine,
} from '../render/index.js';
import { resumedSessionLines } from '../session-store/resumed-session-lines.js';
import type { SlashContext } from '../slash/index.js';
import { builtinSlashCommands, runSlashCommand } from '../slash/index.js';
import { createRedactor, environmentSecrets, logToolEvents, VerboseLog } from '../verbose/index.js';
import { answerFromLine } from './ask-question.js';
import type { CliExecutorOptions } from './cli-executor-options.js';
import { EXIT_CODES } from './exit-codes.js';
import type { LineOutcome, LineReader, TerminalInput } from './line-reader.js';
import { createLineReader } from './line-reader.js';
import { historyFile, PromptHistory } from './prompt-history.js';
import { SessionPrompters } from './session-prompters.js';
import { isSetupError } from './setup-error.js';
import { createSlashContext } from './slash-context.js';
import { StartWarnings } from './start-warnings.js';
import { Turn } from './turn.js';
import { UsageTracker } from './usage-tracker.js';

/** The session's agent once it is ready, with what tracks it until the session ends. */
interface AttachedAgent {
  readonly agent: Agent;
  readonly usage: UsageTracker;
  readonly stopTracking: () => void;
  /** The MCP resources the user attached with `@server:uri`, followed for changes. */
  readonly mentions: ResourceMentions;
}

/**
 * The interactive session: a prompt, slash commands, and the agent's runs rendered as they happen.
 * `run()` resolves with the exit status when the user leaves (`/exit`, Ctrl-D, Ctrl-C at the prompt).
 * The agent may be given as a promise, so the prompt can appear while the agent is still being built.
 */
export class CliExecutor {
  readonly #agentReady: Promise<Agent>;
  readonly #input: TerminalInput;
  readonly #output: TerminalOutput;
  readonly #errorOutput: TerminalOutput;
  readonly #options: CliExecutorOptions;
  readonly #style: Style;
  readonly #animate: boolean;
  readonly #verboseLog: VerboseLog;
  readonly #lines: LineReader;
  #modelLabel: string | undefined;
  readonly #approval: ApprovalControl;
  #markdown: Promise<MarkdownBlocks | undefined> | undefined;
  #pendingSuggestions: readonly string[] = [];
  #leftover = '';
  #exiting = false;
  #turn: Turn | undefined;
  #promptAbort: AbortController | undefined;
  /** The provider whose use of the XML tool protocol the session has shown. */
  #xmlShownFor: LLMProvider | undefined;
  #loginsOffered = false;
  readonly #startWarnings: StartWarnings;
  readonly #prompters: SessionPrompters;

  constructor(agent: Agent | Promise<Agent>, options: CliExecutorOptions = {}) {
    this.#agentReady = Promise.resolve(agent);
    this.#agentReady.catch(() => undefined);
    this.#options = options;
    this.#input = options.input ?? process.stdin;
    this.#output = options.output ?? process.stdout;
    this.#errorOutput = options.errorOutput ?? process.stderr;
    const environment = options.environment ?? process.env;
    const features = terminalFeatures(this.#output, environment);
    this.#style = createStyle(features.color);
    this.#animate = features.animate;
    this.#verboseLog =
      options.verboseLog ??
      new VerboseLog(
        this.#errorOutput,
        createStyle(terminalFeatures(this.#errorOutput, environment).color),
        createRedactor(environmentSecrets(environment)),
        options.verbose ?? false,
      );
    if (options.verboseLog && options.verbose !== undefined) this.#verboseLog.enabled = options.verbose;
    const file = options.historyFile ?? historyFile(environment);
    const history =
      file && this.#input.isTTY
        ? new PromptHistory({
            file,
            onError: (message) => this.#errorOutput.write(`${this.#style.yellow('⚠')} ${stripControls(message)}\n`),
          })
        : undefined;
    const complete = createPromptCompleter(
      sessionCompletionSources(this.#agentReady, options.commands ?? builtinSlashCommands),
    );
    this.#lines = createLineReader(this.#input, this.#output, history, complete);
    this.#modelLabel = options.modelLabel;
    this.#approval = options.approval ?? modeOnlyApprovalControl();
    this.#prompters = new SessionPrompters({ options, input: this.#input, output: this.#output, style: this.#style });
    this.#startWarnings = new StartWarnings((line) =>
      this.#errorOutput.write(`${this.#style.yellow('⚠')} ${this.#verboseLog.redact(stripControls(line))}\n`),
    );
  }

  /** Runs the session until the user leaves; resolves with the exit status. */
  async run(): Promise<number> {
    const stopSignals = this.#handleSignals();
    const startup = new AbortController();
    let startupError: unknown;
    this.#agentReady.catch((error: unknown) => {
      startupError = error;
      startup.abort();
    });
    this.#output.write(this.#banner());
    this.#startWarnings.interruptWhenReady(this.#agentReady, () => this.#promptAbort?.abort());
    let attached: AttachedAgent | undefined;
    let initialInput = this.#options.initialInput?.trim() || undefined;
    try {
      if (this.#options.resume) {
        const ready = await this.#attach();
        if (typeof ready === 'number') return ready;
        attached = ready;
        const answer = await this.#resume(attached.agent);
        if (typeof answer === 'number') return answer;
        initialInput ??= answer;
      }
      while (!this.#exiting) {
        let outcome: LineOutcome;
        if (initialInput !== undefined) {
          this.#output.write(`${this.#prompt}${initialInput}\n`);
          outcome = { type: 'line', text: initialInput };
          initialInput = undefined;
        } else {
          const pendingWarningsOf = this.#startWarnings.pendingOf;
          if (pendingWarningsOf) {
            this.#startWarnings.show(pendingWarningsOf);
            await this.#offerLogins(pendingWarningsOf);
          }
          this.#promptAbort = new AbortController();
          const signal = AbortSignal.any([startup.signal, this.#promptAbort.signal]);
          const reading = this.#lines.read(this.#prompt, { initial: this.#leftover, signal });
          this.#leftover = '';
          this.#preloadMarkdown();
          outcome = await reading;
        }
        if (startupError !== undefined) return this.#failStartup(startupError);
        // The prompt gave way to the start-up warnings: show them and draw it again.
        if (outcome.type === 'end' && this.#startWarnings.pendingOf && !this.#startWarnings.shown && !this.#exiting)
          continue;
        if (outcome.type !== 'line') break;
        const line = outcome.text.trim();
        if (line === '') continue;
        if (!attached) {
          const ready = await this.#attach();
          if (typeof ready === 'number') return ready;
          attached = ready;
        }
        const { agent, usage, mentions } = attached;
        let submitted: string | undefined;
        const context = this.#slashContext(agent, usage, mentions, (input) => {
          submitted = input;
        });
        if ((await runSlashCommand(line, context)) && submitted === undefined) continue;
        const input = submitted ?? (await this.#attachMentions(mentions, line));
        if (input === undefined) continue;
        const forced = await this.#converse(agent, input);
        if (forced) return EXIT_CODES.cancelled;
      }
      return EXIT_CODES.success;
    } finally {
      stopSignals();
      attached?.stopTracking();
      attached?.usage.dispose();
      await attached?.mentions.close().catch(() => undefined);
      this.#lines.close();
    }
  }

  /**
   * Waits for the agent (made in the background while the banner and prompt show), starts tracking its
   * usage and tool events and says once what the approval set-up needs to say. Resolves with an exit
   * status when the agent could not be made.
   */
  async #attach(): Promise<AttachedAgent | number> {
    let agent: Agent;
    try {
      agent = await this.#agentReady;
    } catch (error) {
      return this.#failStartup(error);
    }
    const attached = {
      agent,
      usage: new UsageTracker(agent),
      stopTracking: logToolEvents(agent, this.#verboseLog),
      mentions: new ResourceMentions(() => mcpServersOf(agent.tools)),
    };
    const notice = this.#approval.notice?.();
    if (notice) this.#errorOutput.write(`${this.#style.yellow('⚠')} ${stripControls(notice)}\n`);
    this.#startWarnings.show(agent);
    await this.#offerLogins(agent);
    return attached;
  }

  /**
   * On a terminal, asks once to log in to each MCP server that needs it (see offerMcpLogins), right after
   * the start-up warnings: a server that wants a login is a question, not a failure, where someone can
   * answer it.
   */
  async #offerLogins(agent: Agent): Promise<void> {
    if (this.#loginsOffered || this.#input.isTTY !== true) return;
    this.#loginsOffered = true;
    const statuses = mcpServersOf(agent.tools)?.status() ?? [];
    if (!statuses.some((status) => status.auth?.state === 'login-needed')) return;
    // Loaded only when a login is wanted: the prompt must not wait for the browser opener and the rest.
    const { offerMcpLogins } = await import('../mcp/offer-mcp-logins.js');
    // Ctrl-C while the browser is awaited (see #handleSignals) ends the login, not the session.
    const login = new AbortController();
    this.#promptAbort = login;
    await offerMcpLogins(agent.tools, {
      signal: login.signal,
      ask: async (question) => {
        const outcome = await this.#lines.read(question);
        return outcome.type === 'line' ? outcome.text : undefined;
      },
      output: this.#output,
      style: this.#style,
      environment: this.#options.environment ?? process.env,
    });
    if (login.signal.aborted) this.#exiting = false;
  }

  /**
   * Opens a resumed session and shows where it stopped; a question it was left waiting on is asked again
   * (on a terminal), and resolves with the answer. Resolves with an exit status when it cannot be opened
   * (another agentloop has it open: `session_locked`).
   */
  async #resume(agent: Agent): Promise<string | number | undefined> {
    let stored: Awaited<ReturnType<NonNullable<Agent['openSession']>>>;
    try {
      if (!agent.openSession) return undefined;
      stored = await agent.openSession();
    } catch (error) {
      return this.#failStartup(error);
    }
    this.#preloadMarkdown();
    const blocks = await this.#markdown;
    // Two columns less: the answer's first row follows `✔ `.
    const width = outputWidth(this.#output) - 2;
    const markdown = blocks ? (text: string) => renderMarkdown(blocks, width, text) : plainMarkdown;
    this.#output.write(resumedSessionLines(stored, this.#style, { markdown }));
    const question = agent.pendingQuestion;
    if (!question) return undefined;
    const ask = this.#prompters.question;
    if (ask) return ask(question);
    this.#pendingSuggestions = question.suggestions ?? [];
    const suggestions = this.#pendingSuggestions.map(
      (suggestion, index) => `  ${index + 1}. ${stripControls(suggestion)}\n`,
    );
    this.#output.write(`${this.#style.yellow('?')} ${stripControls(question.question)}\n${suggestions.join('')}`);
    return undefined;
  }

  /**
   * The typed line as the turn's input, with the MCP resources it mentions (`@server:uri`) attached, and
   * those attached earlier that changed since; says what was attached. Resolves with undefined when one
   * could not be read: the error is shown and the line goes back into the prompt, to be fixed.
   */
  async #attachMentions(mentions: ResourceMentions, line: string): Promise<string | undefined> {
    const outcome = await mentions.expand(answerFromLine(line, this.#pendingSuggestions));
    if (!outcome.ok) {
      this.#errorOutput.write(`${this.#style.red('✗')} ${this.#verboseLog.redact(stripControls(outcome.error))}\n`);
      this.#leftover = line;
      return undefined;
    }
    for (const mention of outcome.attached)
      this.#output.write(
        this.#style.dim(
          `↳ attached @${stripControls(mention.server)}:${stripControls(mention.uri)}${stripControls(attachedCutNote(mention))}\n`,
        ),
      );
    for (const mention of outcome.refreshed)
      this.#output.write(
        this.#style.dim(
          `↳ @${stripControls(mention.server)}:${stripControls(mention.uri)} changed; its new content goes with this message${stripControls(attachedCutNote(mention))}\n`,
        ),
      );
    return outcome.input;
  }

  /** Runs a turn, and keeps going while the agent asks questions the user answers. Resolves true when forced to end. */
  async #converse(agent: Agent, firstInput: string): Promise<boolean> {
    this.#pendingSuggestions = [];
    this.#preloadMarkdown();
    // It has been loading since the prompt was drawn; a turn waits for it, so that all of its text is rendered alike.
    const markdown = await this.#markdown;
    let input: string | undefined = firstInput;
    while (input !== undefined) {
      this.#showProtocolChoice(agent);
      // The verbose log writes lines to stderr at any moment; on the same terminal, a spinner or a live line would draw over them.
      const redraw = this.#animate && !(this.#verboseLog.enabled && this.#errorOutput.isTTY);
      const turn = new Turn(
        agent,
        this.#output,
        this.#input,
        {
          style: this.#style,
          width: outputWidth(this.#output),
          verbose: this.#verboseLog.enabled,
          live: redraw,
          ...(redraw ? { spinner: new Spinner(this.#output, this.#style) } : {}),
          ...(redraw && markdown ? { markdown } : {}),
        },
        {
          prompter: this.#prompters.approve,
          preview: this.#options.approvalPreview ?? { workspace: process.cwd() },
          confinement: this.#approval.commandConfinement?.(),
          elicit: this.#prompters.elicit,
        },
        this.#prompters.question,
      );
      this.#turn = turn;
      const outcome = await turn.run(input).finally(() => (this.#turn = undefined));
      // A switch to XML made during the turn was shown by the renderer.
      if (agent.activeToolProtocol === 'xml') this.#xmlShownFor = agent.provider;
      if (!outcome.result) return true;
      this.#leftover = outcome.leftover;
      input = await this.#showResult(outcome.result);
      if (outcome.undelivered > 0 && input === undefined) {
        this.#output.write(
          this.#style.dim(`↳ The agent finished before reading your queued message; it goes with your next message.\n`),
        );
      }
    }
    return false;
  }

  /** Shows how a run ended; for a question on a terminal, asks it and resolves with the answer. */
  async #showResult(result: AgentResult): Promise<string | undefined> {
    const ask = this.#prompters.question;
    if (result.exit === 'ask_question' && ask) return ask(result.payload);
    if (result.exit === 'ask_question') this.#pendingSuggestions = result.payload.suggestions ?? [];
    this.#preloadMarkdown();
    const blocks = await this.#markdown;
    const width = outputWidth(this.#output);
    const markdown = blocks ? (text: string) => renderMarkdown(blocks, width, text) : plainMarkdown;
    this.#output.write(
      renderResult(result, {
        style: this.#style,
        markdown,
        mode: 'interactive',
        verbose: this.#verboseLog.enabled,
        errorContext: this.#options.errorContext ?? {},
        redact: this.#verboseLog.redact,
        ...(this.#output.isTTY === true ? { width } : {}),
      }),
    );
    return undefined;
  }

  // `auto` picks XML for a model without native tools: the session says so once per provider, before its first turn.
  #showProtocolChoice(agent: Agent): void {
    if (agent.toolProtocol !== 'auto' || agent.activeToolProtocol !== 'xml' || this.#xmlShownFor === agent.provider)
      return;
    this.#xmlShownFor = agent.provider;
    this.#output.write(`${xmlProtocolChosenLine(this.#label(agent), this.#style)}\n`);
  }

  #slashContext(
    agent: Agent,
    usage: UsageTracker,
    mentions: ResourceMentions,
    submit: (input: string) => void,
  ): SlashContext {
    return createSlashContext({
      agent,
      approval: this.#approval,
      output: this.#output,
      style: this.#style,
      commands: this.#options.commands ?? builtinSlashCommands,
      usage,
      verboseLog: this.#verboseLog,
      modelLabel: () => this.#label(agent),
      switchModel:
        this.#options.switchModel ?? createModelSwitcher({ environment: this.#options.environment ?? process.env }),
      // A number typed after /clear is a new task, not an answer to the forgotten question's suggestions.
      onClear: () => {
        this.#pendingSuggestions = [];
        void mentions.forget().catch(() => undefined);
      },
      submit,
      onSwitch: (label) => {
        this.#modelLabel = label;
      },
      exit: () => {
        this.#exiting = true;
      },
    });
  }

  get #prompt(): string {
    return this.#style.bold(this.#style.cyan('› '));
  }

  #banner(): string {
    const label = this.#modelLabel ? ` · ${this.#modelLabel}` : '';
    const help = 'Type a task. /help lists commands; Ctrl-C cancels a turn; Ctrl-D exits.';
    return `${this.#style.bold('agentloop')}${this.#style.dim(label)}\n${this.#style.dim(help)}\n`;
  }

  #label(agent: Agent): string {
    return this.#modelLabel ?? `${agent.provider.id}:${agent.provider.capabilities.modelId}`;
  }

  // marked-terminal takes a while to load: it loads while the user types the first task, with the text
  // measures the answer's lines need.
  #preloadMarkdown(): void {
    loadTextWidth().catch(() => undefined);
    if (this.#markdown || !this.#style.isColorSupported) return;
    this.#markdown = loadMarkdownBlocks().catch(() => undefined);
  }

  #failStartup(error: unknown): number {
    const setup = isSetupError(error);
    const line = setup ? error.message : describeError(error, this.#options.errorContext);
    this.#errorOutput.write(`${this.#style.red('✗')} ${this.#verboseLog.redact(stripControls(line))}\n`);
    return setup ? EXIT_CODES.usage : EXIT_CODES.error;
  }

  // Off a terminal, Ctrl-C arrives as SIGINT: it interrupts the turn, or leaves at the prompt.
  #handleSignals(): () => void {
    if (!(this.#options.handleSignals ?? this.#input === process.stdin)) return () => {};
    const onSignal = () => {
      if (this.#turn) this.#turn.interrupt();
      else {
        this.#exiting = true;
        this.#promptAbort?.abort();
      }
    };
    process.on('SIGINT', onSignal);
    return () => process.off('SIGINT', onSignal);
  }
}
