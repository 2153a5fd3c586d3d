import type { TerminalInput } from './line-reader.js';

interface Keypress {
  name?: string;
  ctrl?: boolean;
}

/**
 * Notes a Ctrl-C pressed while a clack prompt has the keyboard (an approval, an elicitation's form). Such a
 * prompt ends on Ctrl-C as on Esc, and only this tells the two apart: Ctrl-C cancels the turn, Esc
 * answers the prompt. Listens from its construction until `stop()`.
 */
export class CtrlCWatch {
  #pressed = false;
  readonly #onKeypress = (_text: string | undefined, key: Keypress | undefined) => {
    if (key?.ctrl && key.name === 'c') this.#pressed = true;
  };

  constructor(private readonly input: TerminalInput) {
    input.on('keypress', this.#onKeypress);
  }

  /** True once Ctrl-C was pressed. */
  get pressed(): boolean {
    return this.#pressed;
  }

  /** Stops listening. */
  stop(): void {
    this.input.off('keypress', this.#onKeypress);
  }
}
