import { emitKeypressEvents } from 'node:readline';
import type { TerminalInput } from './line-reader.js';

interface Keypress {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}

/** What the keyboard reports while a run goes. */
export interface RunKeyboardHandlers {
  /** Ctrl-C. */
  onInterrupt(): void;
  /** A line typed and sent with Enter. */
  onLine(text: string): void;
}

/**
 * The keyboard while the agent works, on a terminal: Ctrl-C interrupts, and text typed and sent with
 * Enter is handed over (the session queues it for the agent). The text is not echoed, since the agent's
 * output owns the screen; it is shown once sent. Off a terminal it does nothing (SIGINT covers Ctrl-C).
 */
export class RunKeyboard {
  #buffer = '';
  #active = false;
  #paused = false;
  readonly #onKeypress = (text: string | undefined, key: Keypress | undefined) => this.#key(text, key ?? {});

  constructor(
    private readonly input: TerminalInput,
    private readonly handlers: RunKeyboardHandlers,
  ) {}

  /** Starts listening (raw mode on a terminal). */
  start(): void {
    if (!this.input.isTTY || this.#active) return;
    this.#active = true;
    emitKeypressEvents(this.input);
    this.input.setRawMode?.(true);
    this.input.on('keypress', this.#onKeypress);
    this.input.resume();
  }

  /** Lets a prompt have the keyboard for a while (an approval), keeping the text typed so far. */
  pause(): void {
    if (!this.#active || this.#paused) return;
    this.#paused = true;
    this.input.off('keypress', this.#onKeypress);
  }

  /** Takes the keyboard back after `pause()`: the prompt left the terminal out of raw mode and paused. */
  resume(): void {
    if (!this.#active || !this.#paused) return;
    this.#paused = false;
    emitKeypressEvents(this.input);
    this.input.setRawMode?.(true);
    this.input.on('keypress', this.#onKeypress);
    this.input.resume();
  }

  /** Stops listening and returns text typed but not sent, to put back in the prompt. */
  stop(): string {
    if (this.#active) {
      this.#active = false;
      this.#paused = false;
      this.input.off('keypress', this.#onKeypress);
      this.input.setRawMode?.(false);
      this.input.pause();
    }
    const rest = this.#buffer;
    this.#buffer = '';
    return rest;
  }

  #key(text: string | undefined, key: Keypress): void {
    if (key.ctrl && key.name === 'c') {
      this.handlers.onInterrupt();
      return;
    }
    if (key.name === 'return' || key.name === 'enter') {
      const line = this.#buffer.trim();
      this.#buffer = '';
      if (line) this.handlers.onLine(line);
      return;
    }
    if (key.name === 'backspace') {
      this.#buffer = Array.from(this.#buffer).slice(0, -1).join('');
      return;
    }
    if (key.ctrl && key.name === 'u') {
      this.#buffer = '';
      return;
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is kept out of the text
    if (text && !key.ctrl && !key.meta && !/[\x00-\x1f\x7f]/.test(text)) this.#buffer += text;
  }
}
