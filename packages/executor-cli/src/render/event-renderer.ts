import type { AgentEvent, AgentEventMap } from '@agentloop/core';
import { redactUrlCredentials } from '../verbose/redact.js';
import { formatCompactionLine, formatContextFullness } from './compaction-line.js';
import { describeError, firstSentence } from './describe-error.js';
import { LiveMessage } from './live-message.js';
import { LOOP_CONTROL_TOOLS } from './loop-control-tools.js';
import type { MarkdownBlocks } from './markdown-lines.js';
import { MarkdownLines } from './markdown-lines.js';
import { protocolSwitchLine } from './protocol-lines.js';
import type { Spinner } from './spinner.js';
import { plainLines } from './stream-lines.js';
import { StreamedUrlRedactor } from './streamed-url-redactor.js';
import { stripControls } from './strip-controls.js';
import { SubagentLines } from './subagent-lines.js';
import type { Style, TerminalOutput } from './terminal.js';
import { cutText, formatCount, formatDuration, oneLine } from './text-summary.js';
import { formatToolCall, formatToolCallLine } from './tool-call-line.js';
import { wrapLine } from './wrap-line.js';

/** Options of an EventRenderer. */
export interface EventRendererOptions {
  style: Style;
  /** Shown while waiting for the model and while tools run; leave out for pipes. */
  spinner?: Spinner;
  /**
   * The output is a terminal the renderer may redraw: the line the model is writing stays live until it
   * is complete, and notes (queued input, retries) go above it. Off, text is written as it comes, and a
   * note waits for the end of the line. Leave out for pipes, and where others write to the same terminal
   * at any moment (the verbose log).
   */
  live?: boolean;
  /**
   * Render the model's text as Markdown, each line as it ends (with `live` only: until then the line is
   * shown as written). A promise is used once it has settled; text before that is shown as written.
   */
  markdown?: MarkdownBlocks | Promise<MarkdownBlocks | undefined>;
  /** Show thinking whole and the notes only verbose mode shows. */
  verbose?: boolean;
  /** Line width for tool lines and folded thinking. */
  width: number;
  /** The clock for how long thinking took. Default `Date.now`. */
  now?: () => number;
}

/**
 * Renders a run's events as they come: streamed text, thinking dimmed (folded to one line unless
 * verbose), one line per tool call (a sub-agent's indented under its call, see SubagentLines), retries, a switch of tool protocol, queued input, compactions and the
 * wrap-up step before the iteration limit; the spinner's status line says how full the context is once a
 * model call has reported it. A note about queued input or a retry never
 * cuts a line of the model's text: on a live terminal it goes above the line being written, elsewhere
 * after it. The run's ending (result, question, error) is `renderResult`'s job. Writes only to the output
 * it is given.
 */
export class EventRenderer {
  /** Show thinking whole and the verbose-only notes. */
  verbose: boolean;
  readonly #output: TerminalOutput;
  readonly #style: Style;
  readonly #spinner: Spinner | undefined;
  readonly #width: number;
  readonly #now: () => number;
  readonly #live: boolean;
  #markdown: MarkdownBlocks | undefined;
  readonly #calls = new Map<string, { name: string; arguments: unknown }>();
  /** The message being streamed to a live terminal. */
  #message: LiveMessage | undefined;
  /** Notes waiting for the end of the current line. */
  #notes: string[] = [];
  #atLineStart = true;
  #thinking = '';
  #thinkingStarted = 0;
  // The model's text and thinking are shown with the passwords of URLs hidden; only the display: what the
  // model sees and what is stored keep them.
  #messageUrls = new StreamedUrlRedactor();
  #thinkingUrls = new StreamedUrlRedactor();
  #shownInStep = false;
  /** How full the context is, for the status line (`42% of context`); empty before the first model call. */
  #context = '';
  readonly #subagents: SubagentLines;

  constructor(output: TerminalOutput, options: EventRendererOptions) {
    this.#output = output;
    this.#style = options.style;
    this.#spinner = options.spinner;
    this.verbose = options.verbose ?? false;
    this.#width = options.width;
    this.#now = options.now ?? Date.now;
    this.#live = options.live ?? false;
    this.#subagents = new SubagentLines(this.#style, this.#width);
    if (options.markdown instanceof Promise)
      void options.markdown.then(
        (blocks) => (this.#markdown = blocks),
        () => undefined,
      );
    else this.#markdown = options.markdown;
  }

  /** Renders one event. */
  handle(event: AgentEvent): void {
    switch (event.type) {
      case 'loop-iteration':
        this.#shownInStep = false;
        this.#spin('Working…');
        break;
      case 'thinking-start':
        this.#thinkingStart();
        break;
      case 'thinking-content':
        this.#thinkingContent(event.text);
        break;
      case 'thinking-end':
        this.#thinkingEnd(event.text);
        break;
      case 'message-start':
        this.#spinner?.stop();
        this.#endLine();
        this.#messageUrls = new StreamedUrlRedactor();
        break;
      case 'message-content':
        this.#shownInStep = true;
        this.#messageContent(this.#messageUrls.push(stripControls(event.text)));
        break;
      case 'message-end':
        this.#messageContent(this.#messageUrls.flush());
        this.#endLine();
        break;
      case 'tool-call-start':
        this.#spin(`Preparing ${this.#style.bold(stripControls(event.name))}…`);
        break;
      case 'tool-call':
        this.#toolCall(event);
        break;
      case 'tool-progress': {
        const { message, fraction } = event.progress;
        this.#spin(
          `${this.#style.bold(stripControls(event.name))}: ${stripControls(message)}${fraction === undefined ? '' : ` (${Math.round(fraction * 100)}%)`}`,
        );
        break;
      }
      case 'tool-result':
        this.#toolResult(event.toolCallId, event.name, event.content, event.durationMs, false);
        break;
      case 'tool-result-error':
        this.#toolResult(event.toolCallId, event.name, event.content, event.durationMs, true);
        break;
      case 'retry':
        this.#retry(event);
        break;
      case 'usage':
        this.#context = formatContextFullness(event.context.fraction);
        break;
      case 'compaction-start':
        this.#spin('Compacting the conversation…');
        break;
      case 'compaction-end':
        this.#note(formatCompactionLine(event, this.#style));
        if (!event.error) this.#spin('Working…');
        break;
      case 'protocol-switch':
        this.#note(protocolSwitchLine(this.#style));
        break;
      case 'loop-wrap-up':
        // The model is told to finish now: what it writes next is its summary, not more of the work.
        this.#note(
          this.#style.dim(
            `⚑ Last step (${event.iteration} of ${event.maxIterations}): asking the model to wrap up and say what remains.`,
          ),
        );
        this.#spin('Wrapping up…');
        break;
      case 'no-tool-call':
        if (this.verbose) this.#line(this.#style.dim('(no tool call: the model is reminded to call one)'));
        break;
      case 'input-queued':
        this.#note(
          this.#style.dim(
            `↳ queued for the agent's next step: ${cutText(oneLine(stripControls(event.text)), 60).text}`,
          ),
        );
        break;
      case 'input-delivered':
        this.#note(
          this.#style.dim(`↳ delivered to the agent: ${cutText(oneLine(stripControls(event.text)), 60).text}`),
        );
        break;
      case 'listener-error':
        if (this.verbose)
          this.#note(this.#style.dim(`(a listener of ${event.event} failed: ${describeError(event.error)})`));
        break;
      case 'subagent-event': {
        const { line, status } = this.#subagents.view(event, this.verbose);
        if (line) this.#note(line);
        if (status) this.#spin(status);
        break;
      }
      case 'loop-end':
        this.stop();
        break;
    }
  }

  /** Shows a status line of the executor's own, never cutting a line of the model's text. */
  note(text: string): void {
    this.#note(text);
  }

  /** Stops the spinner and ends the current line, before someone else writes. */
  stop(): void {
    this.#spinner?.stop();
    this.#endLine();
  }

  #thinkingStart(): void {
    this.#thinking = '';
    this.#thinkingStarted = this.#now();
    this.#thinkingUrls = new StreamedUrlRedactor();
    if (this.verbose) {
      this.#spinner?.stop();
      this.#endLine();
      this.#write(this.#style.dim('✻ '));
    } else {
      this.#spin('Thinking…');
    }
  }

  #thinkingContent(text: string): void {
    this.#thinking += text;
    if (this.verbose) this.#write(this.#style.dim(this.#thinkingUrls.push(stripControls(text))));
  }

  #thinkingEnd(text: string): void {
    if (this.verbose) {
      this.#write(this.#style.dim(this.#thinkingUrls.flush()));
      this.#endLine();
      return;
    }
    const folded = oneLine(redactUrlCredentials(stripControls(text)));
    if (folded === '') return;
    // How long it thought, when that is long enough to matter.
    const elapsed = this.#now() - this.#thinkingStarted;
    const seconds = elapsed >= 1000 ? ` ${formatDuration(elapsed)}` : '';
    // The line fits the width with its note, whose longest form is known before cutting.
    const note = (cut: number) => (cut > 0 ? ` (+${formatCount(cut)} chars; /verbose shows all)` : '');
    const room = this.#width - 2 - seconds.length;
    const fits = Array.from(folded).length <= room;
    const { text: shown, cut } = fits
      ? { text: folded, cut: 0 }
      : cutText(folded, Math.max(10, room - note(folded.length).length));
    this.#line(this.#style.dim(`✻ ${shown}${note(cut)}${seconds}`));
    this.#spin('Working…');
  }

  #toolCall(event: AgentEventMap['tool-call']): void {
    if (LOOP_CONTROL_TOOLS.has(event.name)) {
      this.#spinner?.stop();
      return;
    }
    this.#calls.set(event.toolCallId, { name: event.name, arguments: event.arguments });
    this.#spin(
      this.#calls.size > 1
        ? `Running ${this.#calls.size} tools…`
        : formatToolCall(event.name, event.arguments, this.#style),
    );
  }

  #toolResult(toolCallId: string, name: string, content: string, durationMs: number, isError: boolean): void {
    const call = this.#calls.get(toolCallId);
    this.#calls.delete(toolCallId);
    // A loop-control call that went through ends the run; one with bad arguments is shown, since the model must retry it.
    if (LOOP_CONTROL_TOOLS.has(name) && !isError) return;
    this.#line(
      this.#fit(
        formatToolCallLine(
          { name, arguments: call?.arguments, durationMs, content, isError },
          this.#style,
          this.#width,
        ),
      ),
    );
    this.#shownInStep = true;
    const [next] = this.#calls.values();
    if (next)
      this.#spin(
        this.#calls.size > 1
          ? `Running ${this.#calls.size} tools…`
          : formatToolCall(next.name, next.arguments, this.#style),
      );
  }

  #retry(event: AgentEventMap['retry']): void {
    const seconds = formatDuration(event.delayMs);
    const discarded = event.discardOutput && this.#shownInStep ? ' The partial answer above is discarded.' : '';
    this.#note(
      this.#style.yellow(
        `↻ ${event.error.code}: ${stripControls(firstSentence(event.error.message))}. Retrying in ${seconds} (attempt ${event.attempt + 1}).${discarded}`,
      ),
    );
    if (event.discardOutput) this.#shownInStep = false;
    this.#spin('Retrying…');
  }

  #spin(text: string): void {
    if (!this.#spinner) return;
    this.#endLine();
    this.#spinner.start(this.#context ? `${text}${this.#style.dim(` · ${this.#context}`)}` : text);
  }

  #messageContent(text: string): void {
    if (text === '') return;
    if (!this.#live) {
      this.#write(text);
      return;
    }
    if (!this.#message) {
      this.#spinner?.stop();
      this.#endLine();
      this.#message = new LiveMessage(
        this.#output,
        this.#markdown ? new MarkdownLines(this.#markdown, this.#width) : plainLines(),
      );
    }
    this.#message.push(text);
  }

  // A line that must not cut the model's text: above the live line, at once at a line start, or after the line.
  #note(line: string): void {
    const text = this.#fit(line);
    if (this.#message) this.#message.note(text);
    else if (this.#atLineStart && this.#spinner?.active) this.#spinner.printAbove(`${text}\n`);
    else if (this.#atLineStart) this.#line(text);
    else this.#notes.push(text);
  }

  // A terminal breaks a line past its width inside a word: on one, a line is wrapped between words first.
  // A pipe has no width to keep to, and a program reading it wants the line whole.
  #fit(line: string): string {
    return this.#output.isTTY === true ? wrapLine(line, this.#width) : line;
  }

  #write(text: string): void {
    if (text === '') return;
    this.#spinner?.stop();
    const lineEnd = this.#notes.length > 0 ? text.indexOf('\n') : -1;
    if (lineEnd !== -1) {
      this.#output.write(text.slice(0, lineEnd + 1));
      this.#atLineStart = true;
      this.#writeNotes();
      this.#write(text.slice(lineEnd + 1));
      return;
    }
    this.#output.write(text);
    this.#atLineStart = text.endsWith('\n');
  }

  #writeNotes(): void {
    const notes = this.#notes;
    this.#notes = [];
    for (const note of notes) this.#output.write(`${note}\n`);
  }

  #line(text: string): void {
    this.#spinner?.stop();
    this.#endLine();
    this.#write(`${text}\n`);
  }

  // Ends the current line: a live message is printed whole, and the notes that waited for it follow.
  #endLine(): void {
    if (this.#message) {
      this.#message.end();
      this.#message = undefined;
      this.#atLineStart = true;
    }
    if (!this.#atLineStart) this.#write('\n');
    if (this.#notes.length > 0) this.#writeNotes();
  }
}
