import type { AgentResult } from '@agentloop/core';
import { redactUrlCredentials } from '../verbose/redact.js';
import type { ErrorContext } from './describe-error.js';
import { describeError, describeErrorDetails } from './describe-error.js';
import type { MarkdownRenderer } from './markdown.js';
import { stripControls } from './strip-controls.js';
import type { Style } from './terminal.js';
import { wrapLine } from './wrap-line.js';

/** How a result is rendered. */
export interface ResultRenderOptions {
  style: Style;
  /** The colours of status lines, when they go to another output than the result. Default: `style`. */
  statusStyle?: Style;
  markdown: MarkdownRenderer;
  /** Interactive sessions can continue a run; one-shot runs cannot. */
  mode: 'interactive' | 'run';
  /** Adds error details. */
  verbose?: boolean;
  /** Names the provider in error lines. */
  errorContext?: ErrorContext;
  /** Removes secrets from the verbose error details (the session's redactor). Default: none. */
  redact?: (text: string) => string;
  /**
   * The terminal's width: the lines that are not Markdown (status lines, a question and its suggestions)
   * are wrapped to it between words. Absent (a pipe): they are left whole.
   */
  width?: number;
}

/** Where a piece of a run's ending belongs: the result itself, or a status line about it. */
export type ResultChannel = 'result' | 'status';

/** One piece of a run's ending, with the channel it belongs to. */
export interface ResultSection {
  channel: ResultChannel;
  /** The text, ending with a newline. */
  text: string;
}

/**
 * How a run ended, as text for the terminal: the completed task's result (Markdown) and artifacts, the
 * conversational message, the question and its suggestions, the iteration limit (with the agent's
 * summary of what it did and what remains, when it wrapped up) and how to go on, a cancel, or the error
 * in one line (with details when verbose). Ends with a newline. What the model or
 * the server wrote is stripped of terminal control sequences, and the passwords of its URLs are hidden,
 * before it is rendered.
 */
export function renderResult(result: AgentResult, options: ResultRenderOptions): string {
  return renderResultSections(result, options)
    .map((section) => section.text)
    .join('');
}

/**
 * `renderResult` in pieces, each marked as the result or a status line (`✔ Done`, the artifacts list,
 * the iteration limit, a cancel, an error; the wrap-up's summary at the limit is a result), so that `agentloop run` can print the result alone on stdout
 * and the rest on stderr. Status lines use `statusStyle` when it is given.
 */
export function renderResultSections(result: AgentResult, options: ResultRenderOptions): ResultSection[] {
  const { style, markdown } = options;
  // A terminal would break a line past its width inside a word; Markdown is wrapped by its renderer.
  const fitIndented = (text: string, indent: string) =>
    options.width === undefined ? text : wrapLine(text, options.width, indent);
  const fit = (text: string) => fitIndented(text, '  ');
  const status = (text: string): ResultSection => ({ channel: 'status', text: fit(text) });
  const shown = (text: string): ResultSection => ({ channel: 'result', text });
  const statusStyle = options.statusStyle ?? style;
  switch (result.exit) {
    case 'task_completion': {
      const artifacts = result.payload.artifacts ?? [];
      return [
        status(`${statusStyle.green('✔')} ${statusStyle.bold('Done')}\n`),
        shown(`${markdown(shownText(result.payload.result))}\n`),
        ...artifactsSection(artifacts, statusStyle).map(status),
      ];
    }
    case 'converse':
      return [shown(`${markdown(shownText(result.payload.message))}\n`)];
    case 'ask_question': {
      const suggestions = result.payload.suggestions ?? [];
      const list = suggestions
        .map((suggestion, index) => `${fitIndented(`  ${index + 1}. ${shownText(suggestion)}`, '     ')}\n`)
        .join('');
      return [shown(`${fit(`${style.cyan('?')} ${style.bold(shownText(result.payload.question))}`)}\n${list}`)];
    }
    case 'max_iterations': {
      const how =
        options.mode === 'interactive'
          ? 'Type "continue" to let it go on, or raise the limit with --max-iterations or max_iterations in the configuration.'
          : 'Run it again with a higher --max-iterations (or max_iterations in the configuration).';
      const stopped = `${statusStyle.yellow('⚠')} Stopped after ${result.iterations} model calls: the iteration limit was reached before the task was done.`;
      // The wrap-up step's summary (onMaxIterations 'wrap-up') is what the run produced: shown as a result is,
      // so that `agentloop run … > notes.md` keeps it.
      const summary = result.payload;
      if (!summary) return [status(`${stopped}\n${statusStyle.dim(how)}\n`)];
      return [
        status(`${stopped} The agent's summary of what it did and what remains:\n`),
        shown(`${markdown(shownText(summary.result))}\n`),
        ...artifactsSection(summary.artifacts ?? [], statusStyle).map(status),
        status(`${statusStyle.dim(how)}\n`),
      ];
    }
    case 'cancelled':
      return [
        status(
          options.mode === 'interactive'
            ? `${statusStyle.yellow('Cancelled.')} ${statusStyle.dim('The conversation is kept. Ctrl-C again or Ctrl-D exits.')}\n`
            : `${statusStyle.yellow('Cancelled.')}\n`,
        ),
      ];
    case 'error': {
      const redact = options.redact ?? ((text: string) => text);
      const line = `${statusStyle.red('✗')} ${redact(stripControls(describeError(result.error, { ...options.errorContext, mode: options.mode })))}\n`;
      if (!options.verbose) return [status(line)];
      const details = describeErrorDetails(result.error)
        .map((detail) => statusStyle.dim(`  ${redact(stripControls(detail.trim()))}`))
        .join('\n');
      return [status(`${line}${details}\n`)];
    }
  }
}

/**
 * What the model wrote, for the terminal: without control sequences, and with the password of every URL
 * hidden (`postgres://***@host`), as the `--json` lines hide it. Only the display: the conversation keeps it.
 */
function shownText(text: string): string {
  return redactUrlCredentials(stripControls(text));
}

/** The artifacts list, as one text (none when there are no artifacts). */
function artifactsSection(artifacts: readonly string[], style: Style): string[] {
  if (artifacts.length === 0) return [];
  return [`${style.dim('Artifacts:')}\n${artifacts.map((artifact) => `  • ${stripControls(artifact)}\n`).join('')}`];
}
