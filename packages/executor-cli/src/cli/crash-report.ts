import { inspect } from 'node:util';

/**
 * What the command prints for an error nothing else handled: `✗ message` on one line, or the whole error
 * (stack and causes) with `--verbose`. Ends with a newline.
 */
export function crashReport(error: unknown, argv: readonly string[]): string {
  if (argv.includes('--verbose')) return `${inspect(error)}\n`;
  const message = error instanceof Error ? error.message : String(error);
  return `✗ ${message.split('\n')[0]}\n`;
}
