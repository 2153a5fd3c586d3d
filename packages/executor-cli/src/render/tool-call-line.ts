import { redactUrlCredentials } from '../verbose/redact.js';
import { stripControls } from './strip-controls.js';
import type { Style } from './terminal.js';
import { formatDuration, summarizeArguments, summarizeResult } from './text-summary.js';

/** A finished tool call, as its line shows it. */
export interface FinishedToolCall {
  name: string;
  arguments: unknown;
  durationMs: number;
  /** The result text the model sees (the error text for a failure). */
  content: string;
  isError: boolean;
}

/** `read_file(path: "README.md")`: a call's name and short arguments. */
export function formatToolCall(name: string, args: unknown, style: Style): string {
  // JSON escapes C0 controls in the arguments, not C1 ones.
  return `${style.bold(stripControls(name))}(${stripControls(summarizeArguments(args))})`;
}

/**
 * A finished call on one line: mark, name, short arguments, duration, then a short result or the error,
 * cut to the width with a note of how much was cut:
 * `✓ read_file(path: "README.md") 3 ms → # agentloop is a… (+2,345 chars, 40 lines)`.
 */
export function formatToolCallLine(call: FinishedToolCall, style: Style, width: number): string {
  const mark = call.isError ? style.red('✗') : style.green('✓');
  const head = `${formatToolCall(call.name, call.arguments, style)} ${style.dim(formatDuration(call.durationMs))} → `;
  const room = Math.max(24, width - visibleLength(head) - 2);
  // A result may echo a URL the model wrote with its password (a command line, a connection string).
  const content = redactUrlCredentials(stripControls(call.content));
  const summary = call.isError ? style.red(summarizeResult(`error: ${content}`, room)) : summarizeResult(content, room);
  return `${mark} ${head}${summary}`;
}

function visibleLength(text: string): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what is being removed
  return text.replace(/\x1b\[[0-9;]*m/g, '').length;
}
