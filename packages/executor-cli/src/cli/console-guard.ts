import { formatWithOptions, type InspectOptions, inspect } from 'node:util';
import type { TerminalOutput } from '../render/index.js';
import { stripControls } from '../render/strip-controls.js';
import type { Redactor } from '../verbose/redact.js';

/** The console methods the guard replaces: every one that prints. */
const GUARDED_METHODS = ['log', 'info', 'debug', 'warn', 'error', 'trace', 'dir', 'dirxml', 'assert'] as const;

type GuardedMethod = (typeof GUARDED_METHODS)[number];

/** Where the guarded console writes, and what it removes. */
export interface ConsoleGuardOptions {
  /** Where every console line goes (stderr). */
  errorOutput: TerminalOutput;
  /** Removes secrets from each line, after control sequences are stripped. */
  redact: Redactor;
  /** The console to guard. Default: the global `console`. */
  console?: Pick<Console, GuardedMethod>;
}

/** A guarded console, until it is restored. */
export interface ConsoleGuard {
  /** Redacts with another redactor from now on: the session's, once it knows the configured keys. */
  redactWith(redact: Redactor): void;
  /** Puts the console's own methods back. */
  restore(): void;
}

/**
 * Routes the console through the CLI's sanitiser and redaction. The CLI owns the terminal, but code it
 * runs may still print on its own: the OpenAI SDK calls `console.error` directly with what a server sent
 * under an SSE event named `thread.*` (bypassing its `logger` option), and a plugin may log. Each line is
 * formatted as the console would, stripped of control sequences (stripControls: no clipboard write, no
 * screen clear, no reordering) and then redacted — in that order, so that a control character inside a
 * key cannot split it out of the redactor's sight. Every method writes to `errorOutput`, `log` and `info`
 * included: stdout carries the result and the `--json` lines, which a stray line would corrupt. Never
 * throws.
 */
export function installConsoleGuard(options: ConsoleGuardOptions): ConsoleGuard {
  const target = options.console ?? console;
  const saved = GUARDED_METHODS.map((name) => [name, target[name]] as const);
  let redact = options.redact;
  const write = (text: string) => {
    try {
      options.errorOutput.write(`${redact(stripControls(text))}\n`);
    } catch {
      // Logging is best effort: a closed stderr must not fail the code that logged.
    }
  };
  const print = (...values: unknown[]) => write(formatWithOptions({ colors: false }, ...values));
  // Node's `dirxml` and `assert` write through the original methods, not through `this.log`, so they are
  // replaced too (`table`, `group`, `count` and `timeLog` call `this.log`, which is guarded).
  for (const name of ['log', 'info', 'debug', 'warn', 'error', 'dirxml'] as const) target[name] = print;
  target.assert = (condition?: boolean, ...values: unknown[]) => {
    if (!condition)
      write(`Assertion failed${values.length > 0 ? `: ${formatWithOptions({ colors: false }, ...values)}` : ''}`);
  };
  target.trace = (...values: unknown[]) => {
    const stack = (new Error().stack ?? '').split('\n').slice(2).join('\n');
    write(`Trace: ${formatWithOptions({ colors: false }, ...values)}\n${stack}`);
  };
  target.dir = (value: unknown, inspectOptions?: InspectOptions) =>
    write(inspect(value, { ...inspectOptions, colors: false }));
  return {
    redactWith(next) {
      redact = next;
    },
    restore() {
      for (const [name, method] of saved) (target as Record<GuardedMethod, unknown>)[name] = method;
    },
  };
}
