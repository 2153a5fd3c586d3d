import type { AgentResult } from '@agentloop/core';
import type { ErrorContext } from './describe-error.js';
import { describeError, describeErrorDetails } from './describe-error.js';
import type { MarkdownRenderer } from './markdown.js';
import { stripControls } from './strip-controls.js';
import type { Style } from './terminal.js';

/** How a result is rendered. */
export interface ResultRenderOptions {
  style: Style;
  markdown: MarkdownRenderer;
  /** Interactive sessions can continue a run; one-shot runs cannot. */
  mode: 'interactive' | 'run';
  /** Adds error details. */
  verbose?: boolean;
  /** Names the provider in error lines. */
  errorContext?: ErrorContext;
  /** Removes secrets from the verbose error details (the session's redactor). Default: none. */
  redact?: (text: string) => string;
}

/**
 * How a run ended, as text for the terminal: the completed task's result (Markdown) and artifacts, the
 * conversational message, the question and its suggestions, the iteration limit and how to go on, a
 * cancel, or the error in one line (with details when verbose). Ends with a newline. What the model or
 * the server wrote is stripped of terminal control sequences before it is rendered.
 */
export function renderResult(result: AgentResult, options: ResultRenderOptions): string {
  const { style, markdown } = options;
  switch (result.exit) {
    case 'task_completion': {
      const artifacts = result.payload.artifacts ?? [];
      const list =
        artifacts.length > 0
          ? `\n${style.dim('Artifacts:')}\n${artifacts.map((artifact) => `  • ${stripControls(artifact)}`).join('\n')}`
          : '';
      return `${style.green('✔')} ${style.bold('Done')}\n${markdown(stripControls(result.payload.result))}${list}\n`;
    }
    case 'converse':
      return `${markdown(stripControls(result.payload.message))}\n`;
    case 'ask_question': {
      const suggestions = result.payload.suggestions ?? [];
      const list = suggestions.map((suggestion, index) => `  ${index + 1}. ${stripControls(suggestion)}`).join('\n');
      return `${style.cyan('?')} ${style.bold(stripControls(result.payload.question))}\n${list ? `${list}\n` : ''}`;
    }
    case 'max_iterations': {
      const how =
        options.mode === 'interactive'
          ? 'Type "continue" to let it go on, or raise the limit with --max-iterations or max_iterations in the configuration.'
          : 'Run it again with a higher --max-iterations (or max_iterations in the configuration).';
      return `${style.yellow('⚠')} Stopped after ${result.iterations} model calls: the iteration limit was reached before the task was done.\n${style.dim(how)}\n`;
    }
    case 'cancelled':
      return options.mode === 'interactive'
        ? `${style.yellow('Cancelled.')} ${style.dim('The conversation is kept. Ctrl-C again or Ctrl-D exits.')}\n`
        : `${style.yellow('Cancelled.')}\n`;
    case 'error': {
      const redact = options.redact ?? ((text: string) => text);
      const line = `${style.red('✗')} ${redact(stripControls(describeError(result.error, options.errorContext)))}\n`;
      if (!options.verbose) return line;
      return `${line}${describeErrorDetails(result.error)
        .map((detail) => style.dim(`  ${redact(stripControls(detail.trim()))}`))
        .join('\n')}\n`;
    }
  }
}
