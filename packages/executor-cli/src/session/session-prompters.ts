import type { ApprovalPrompter } from '../approval/index.js';
import { clackApprovalPrompter, refusingApprovalPrompter } from '../approval/index.js';
import { clackElicitationPrompter, type ElicitationPrompter } from '../elicitation/index.js';
import type { Style, TerminalOutput } from '../render/index.js';
import type { QuestionPrompter } from './ask-question.js';
import { clackQuestionPrompter } from './ask-question.js';
import type { CliExecutorOptions } from './cli-executor-options.js';
import type { TerminalInput } from './line-reader.js';

/**
 * Who answers what the agent asks the user during a session: its questions, its approval requests and its
 * tools' elicitations. The app's prompters where it gave them; on a terminal, the terminal's; off one,
 * no one can answer, and each says what happens then.
 */
export class SessionPrompters {
  readonly #options: Pick<CliExecutorOptions, 'askQuestion' | 'approve' | 'elicit'>;
  readonly #input: TerminalInput;
  readonly #output: TerminalOutput;
  readonly #style: Style;

  constructor(parts: {
    options: Pick<CliExecutorOptions, 'askQuestion' | 'approve' | 'elicit'>;
    input: TerminalInput;
    output: TerminalOutput;
    style: Style;
  }) {
    this.#options = parts.options;
    this.#input = parts.input;
    this.#output = parts.output;
    this.#style = parts.style;
  }

  /**
   * Asks the agent's questions; undefined off a terminal, where the question is shown with numbered
   * suggestions for the next line, and a sub-agent's question fails its call, for the model to handle.
   */
  get question(): QuestionPrompter | undefined {
    if (!this.#onTerminal()) return undefined;
    return this.#options.askQuestion ?? clackQuestionPrompter(this.#input, this.#output);
  }

  /** Asks about a tool call; off a terminal every such call is refused, and the output says so. */
  get approve(): ApprovalPrompter {
    if (this.#options.approve) return this.#options.approve;
    return this.#onTerminal()
      ? clackApprovalPrompter(this.#input, this.#output, this.#style)
      : refusingApprovalPrompter(this.#output, this.#style);
  }

  /** Undefined off a terminal: no one can fill in a form, so the agent declines tools' elicitations. */
  get elicit(): ElicitationPrompter | undefined {
    if (this.#options.elicit) return this.#options.elicit;
    return this.#onTerminal() ? clackElicitationPrompter(this.#input, this.#output, this.#style) : undefined;
  }

  #onTerminal(): boolean {
    return Boolean(this.#input.isTTY && this.#output.isTTY);
  }
}
