import { inspect } from 'node:util';
import { redactUrlCredentials } from '../verbose/redact.js';

/**
 * What the command prints for an error nothing else handled: `✗ message` on one line, or the whole error
 * (stack and causes) with `--verbose`, the user-info of URLs redacted. Ends with a newline.
 */
export function crashReport(error: unknown, argv: readonly string[]): string {
  if (argv.includes('--verbose')) return `${redactUrlCredentials(inspect(error))}\n`;
  const message = error instanceof Error ? error.message : String(error);
  return `✗ ${redactUrlCredentials(message.split('\n')[0] ?? '')}\n`;
}
