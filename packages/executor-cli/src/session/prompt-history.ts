import {
  closeSync,
  fchmodSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import envPaths from 'env-paths';

/** How many entries the history keeps. */
export const HISTORY_SIZE = 1000;

/**
 * Where the prompt's history is kept: `AGENTLOOP_HISTORY` when it is set (empty turns the history off, as
 * `NODE_REPL_HISTORY` does for Node's REPL), else `agentloop/history` in the user's state directory —
 * `$XDG_STATE_HOME` (`~/.local/state`) on Linux and other Unix systems, where the XDG spec puts history;
 * the application data directory on macOS and Windows. Undefined when it is off.
 */
export function historyFile(
  environment: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string | undefined {
  const chosen = environment.AGENTLOOP_HISTORY;
  if (chosen !== undefined) return chosen.trim() === '' ? undefined : chosen;
  if (platform === 'darwin' || platform === 'win32') return join(envPaths('agentloop', { suffix: '' }).data, 'history');
  const state = environment.XDG_STATE_HOME;
  // The XDG spec ignores a relative path in its variables.
  return join(state && isAbsolute(state) ? state : join(home, '.local', 'state'), 'agentloop', 'history');
}

/** Options of a PromptHistory. */
export interface PromptHistoryOptions {
  /** The file, one entry a line, oldest first. */
  file: string;
  /** How many entries to keep. Default `HISTORY_SIZE`. */
  size?: number;
  /** Told, once, why the history cannot be read or written; the session goes on without it. */
  onError?: (message: string) => void;
}

/**
 * The lines typed at the interactive prompt, kept in a file across sessions so that Up recalls them. The
 * file is the user's alone (mode 0600, in a directory made 0700). A line that starts with a space is not
 * kept, as shells do with `HISTCONTROL=ignorespace`, nor one that repeats the line before it. The file
 * is cut back to the last `size` entries once it holds twice as many. Never throws: a history that
 * cannot be read or written is reported once, and the session goes on without it.
 */
export class PromptHistory {
  readonly #file: string;
  readonly #size: number;
  readonly #onError: (message: string) => void;
  #last: string | undefined;
  /** Entries in the file, as far as this session knows. */
  #count = 0;
  #failed = false;

  constructor(options: PromptHistoryOptions) {
    this.#file = options.file;
    this.#size = options.size ?? HISTORY_SIZE;
    this.#onError = options.onError ?? ((message) => process.stderr.write(`agentloop: ${message}\n`));
  }

  /** The kept entries, oldest first (at most `size`). A missing file is an empty history. */
  load(): string[] {
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.#fail('read', error);
      return [];
    }
    const entries = text.split('\n').filter((entry) => entry.trim() !== '');
    this.#count = entries.length;
    this.#last = entries.at(-1);
    return entries.slice(-this.#size);
  }

  /** Keeps a line typed at the prompt. */
  add(line: string): void {
    const entry = line.replace(/[\r\n]+/g, ' ');
    if (this.#failed || entry.trim() === '' || entry.startsWith(' ') || entry === this.#last) return;
    this.#last = entry;
    try {
      mkdirSync(dirname(this.#file), { recursive: true, mode: 0o700 });
      const descriptor = openSync(this.#file, 'a', 0o600);
      try {
        // A file made by hand or by an older version may be readable by others: it holds what the user typed.
        fchmodSync(descriptor, 0o600);
        writeSync(descriptor, `${entry}\n`);
      } finally {
        closeSync(descriptor);
      }
      this.#count++;
      if (this.#count >= 2 * this.#size) this.#trim();
    } catch (error) {
      this.#fail('write', error);
    }
  }

  // Keeps the last `size` entries: written beside the file, then renamed over it, so a crash loses nothing.
  #trim(): void {
    const entries = readFileSync(this.#file, 'utf8')
      .split('\n')
      .filter((entry) => entry.trim() !== '')
      .slice(-this.#size);
    const next = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(next, entries.map((entry) => `${entry}\n`).join(''), { mode: 0o600 });
    renameSync(next, this.#file);
    this.#count = entries.length;
  }

  #fail(action: 'read' | 'write', error: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    this.#onError(
      `cannot ${action} the prompt history ${this.#file} (${reason}); this session keeps none. AGENTLOOP_HISTORY= turns it off.`,
    );
  }
}
