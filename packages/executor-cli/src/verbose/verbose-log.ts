import type { Style, TerminalOutput } from '../render/index.js';
import { stripControls } from '../render/strip-controls.js';
import type { Redactor } from './redact.js';

/**
 * The verbose log: lines on stderr, dimmed, with terminal controls removed and then secrets redacted (a
 * control character inside a key would otherwise split it out of the redactor's sight). Switched on and off at run time
 * (`/verbose`); while off, nothing is formatted or written. Never throws: a failing log must not change
 * what the agent does.
 */
export class VerboseLog {
  /** Whether lines are written. */
  enabled: boolean;

  constructor(
    private readonly output: TerminalOutput,
    private readonly style: Style,
    /** Removes the session's secrets from text; also used for `--json` lines and error details. */
    readonly redact: Redactor,
    enabled = false,
  ) {
    this.enabled = enabled;
  }

  /** Writes lines (built only when enabled). */
  write(lines: () => readonly string[]): void {
    if (!this.enabled) return;
    try {
      // Tool output and model text are logged as they are: no escape sequence of theirs reaches the terminal.
      for (const line of lines()) this.output.write(`${this.style.dim(this.redact(stripControls(line)))}\n`);
    } catch {
      // Logging is best effort.
    }
  }
}
