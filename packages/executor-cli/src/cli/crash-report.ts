import { inspect } from 'node:util';
import { stripControls } from '../render/strip-controls.js';
import { redactUrlCredentials } from '../verbose/redact.js';

/**
 * What the command prints for an error nothing else handled: `✗ message` on one line, or the whole error
 * (stack and causes) with `--verbose`, the user-info of URLs redacted and control sequences stripped.
 * Ends with a newline.
 */
export function crashReport(error: unknown, argv: readonly string[]): string {
  if (argv.includes('--verbose')) return `${redactUrlCredentials(stripControls(inspect(error)))}\n`;
  const message = error instanceof Error ? error.message : String(error);
  return `✗ ${redactUrlCredentials(stripControls(message.split('\n')[0] ?? ''))}\n`;
}
