import type { Style, TerminalOutput } from '../render/index.js';
import type { Redactor } from './redact.js';

/**
 * The verbose log: lines on stderr, dimmed, with secrets redacted. Switched on and off at run time
 * (`/verbose`); while off, nothing is formatted or written. Never throws: a failing log must not change
 * what the agent does.
 */
export class VerboseLog {
  /** Whether lines are written. */
  enabled: boolean;

  constructor(
    private readonly output: TerminalOutput,
    private readonly style: Style,
    private readonly redact: Redactor,
    enabled = false,
  ) {
    this.enabled = enabled;
  }

  /** Writes lines (built only when enabled). */
  write(lines: () => readonly string[]): void {
    if (!this.enabled) return;
    try {
      for (const line of lines()) this.output.write(`${this.style.dim(this.redact(line))}\n`);
    } catch {
      // Logging is best effort.
    }
  }
}
