import type { Interface } from 'node:readline';
import { createInterface } from 'node:readline';
// The completer's own module, not the folder's index: the index brings the slash commands, which lead back here.
import type { PromptCompleter } from '../completion/prompt-completer.js';
import type { TerminalOutput } from '../render/index.js';
import type { PromptHistory } from './prompt-history.js';
import { HISTORY_SIZE } from './prompt-history.js';

/** Where the session reads from: `process.stdin`, or a stream in tests. */
export type TerminalInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };

/** What reading a line gave: a line, the end of input (Ctrl-D), or Ctrl-C on an empty line. */
export type LineOutcome = { type: 'line'; text: string } | { type: 'end' } | { type: 'interrupt' };

/** Reads the user's input a line at a time. */
export interface LineReader {
  /** Shows the prompt and reads one line; `initial` is put in the line ready to edit. */
  read(prompt: string, options?: { initial?: string; signal?: AbortSignal }): Promise<LineOutcome>;
  close(): void;
}

/**
 * The reader for an input: line editing and history on a terminal (kept across sessions in `history` when
 * given) with Tab completing through `complete` when given, plain lines on a pipe (never kept, no Tab).
 */
export function createLineReader(
  input: TerminalInput,
  output: TerminalOutput,
  history?: PromptHistory,
  complete?: PromptCompleter,
): LineReader {
  return input.isTTY ? new TerminalLineReader(input, output, history, complete) : new StreamLineReader(input, output);
}

/**
 * Line editing with history on a terminal. Each read has its own readline interface, closed when the
 * line is read, because between prompts the terminal belongs to others (the run's key handler, the
 * question prompt) that read keys from the same input. Lines that arrive together (typed ahead, pasted)
 * are all kept: the interface closes only after the whole chunk is read, and the extra lines are queued
 * for the next reads. With a `PromptHistory`, Up recalls the lines of earlier sessions too, and each
 * line read is added to it. With a `PromptCompleter`, Tab completes the word before the cursor.
 */
export class TerminalLineReader implements LineReader {
  /** Newest first, as readline keeps it. */
  #history: string[];
  readonly #queued: string[] = [];
  #partial = '';

  constructor(
    private readonly input: TerminalInput,
    private readonly output: TerminalOutput,
    private readonly kept?: PromptHistory,
    private readonly complete?: PromptCompleter,
  ) {
    this.#history = kept ? kept.load().reverse() : [];
  }

  read(prompt: string, options: { initial?: string; signal?: AbortSignal } = {}): Promise<LineOutcome> {
    const queued = this.#queued.shift();
    if (queued !== undefined) {
      this.output.write(`${prompt}${queued}\n`);
      return Promise.resolve({ type: 'line', text: queued });
    }
    let done = false;
    const complete = this.complete;
    const readline = createInterface({
      input: this.input,
      output: this.output as NodeJS.WritableStream,
      terminal: true,
      ...(complete
        ? {
            completer: (line: string, callback: (error: null, completion: [string[], string]) => void) => {
              // readline stops reading keys until it is called back; once this read is over the terminal
              // belongs to others, and a late answer would take the input back from them.
              void complete(line).then((completion) => {
                if (!done) callback(null, completion);
              });
            },
          }
        : {}),
      history: [...this.#history],
      historySize: HISTORY_SIZE,
      removeHistoryDuplicates: true,
      prompt,
    });
    return new Promise((resolve) => {
      const finish = (outcome: LineOutcome) => {
        if (done) return;
        done = true;
        this.#history = [...(readline as Interface & { history: string[] }).history];
        this.#partial = readline.line;
        options.signal?.removeEventListener('abort', abort);
        readline.close();
        resolve(outcome);
      };
      const abort = () => {
        this.output.write('\n');
        finish({ type: 'end' });
      };
      readline.on('line', (text) => {
        this.kept?.add(text);
        this.#queued.push(text);
        // The rest of the chunk this line came in is still being read: close once it is.
        if (this.#queued.length === 1)
          setImmediate(() => finish({ type: 'line', text: this.#queued.shift() as string }));
      });
      readline.on('close', () => {
        if (done) return;
        if (this.#queued.length > 0) return finish({ type: 'line', text: this.#queued.shift() as string });
        // Ctrl-D ends the input on the prompt's line: end that line, so the shell's prompt starts on its own.
        this.output.write('\n');
        finish({ type: 'end' });
      });
      // Ctrl-C clears a line that has text, as shells do; on an empty line it asks to leave.
      readline.on('SIGINT', () => {
        if (readline.line.length === 0) {
          this.output.write('\n');
          finish({ type: 'interrupt' });
          return;
        }
        readline.write(null, { ctrl: true, name: 'e' });
        readline.write(null, { ctrl: true, name: 'u' });
      });
      if (options.signal?.aborted) return abort();
      options.signal?.addEventListener('abort', abort, { once: true });
      readline.prompt();
      const initial = `${this.#partial}${options.initial ?? ''}`;
      this.#partial = '';
      if (initial) readline.write(initial);
    });
  }

  close(): void {}
}

/**
 * Lines from a pipe or a test stream. One interface reads the whole input, so lines that arrive together
 * are all kept, queued until read.
 */
export class StreamLineReader implements LineReader {
  readonly #lines: string[] = [];
  readonly #readline: Interface;
  #ended = false;
  #waiting: (() => void) | undefined;

  constructor(
    input: TerminalInput,
    private readonly output: TerminalOutput,
  ) {
    this.#readline = createInterface({ input, terminal: false });
    this.#readline.on('line', (line) => {
      this.#lines.push(line);
      this.#waiting?.();
    });
    this.#readline.on('close', () => {
      this.#ended = true;
      this.#waiting?.();
    });
  }

  async read(prompt: string, options: { initial?: string; signal?: AbortSignal } = {}): Promise<LineOutcome> {
    this.output.write(prompt);
    while (this.#lines.length === 0 && !this.#ended && !options.signal?.aborted) {
      await new Promise<void>((resolve) => {
        this.#waiting = resolve;
        options.signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      this.#waiting = undefined;
    }
    const line = this.#lines.shift();
    if (line === undefined) {
      this.output.write('\n');
      return { type: 'end' };
    }
    this.output.write(`${line}\n`);
    return { type: 'line', text: `${options.initial ?? ''}${line}` };
  }

  close(): void {
    this.#readline.close();
  }
}
