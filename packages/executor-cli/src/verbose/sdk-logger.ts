import { inspect } from 'node:util';
import type { Style, TerminalOutput } from '../render/index.js';
import { cutText, oneLine, stripControls } from '../render/index.js';
import type { VerboseLog } from './verbose-log.js';

/** One level of a vendor SDK's logger: a message and what goes with it. */
export type SdkLogFunction = (message: string, ...rest: unknown[]) => void;

/** The logger the Anthropic and OpenAI SDKs take as their `logger` client option. */
export interface SdkLogger {
  error: SdkLogFunction;
  warn: SdkLogFunction;
  info: SdkLogFunction;
  debug: SdkLogFunction;
}

/** Where an SdkLogger writes. */
export interface SdkLoggerOptions {
  /** Where warnings and errors go (stderr). */
  errorOutput: TerminalOutput;
  style: Style;
  /** Gets the SDK's info and debug lines, and lends its redactor to the others. */
  verboseLog: VerboseLog;
  /** The longest line written, in characters (a malformed event can be long). Default 400. */
  maxLength?: number;
}

/**
 * A logger for the vendor SDKs, which would otherwise log to `console` and put what a server sent — a
 * malformed event whole, escape sequences and all — on the terminal raw. Each line is stripped of control
 * sequences (stripControls, the CLI's one sanitiser), then redacted — in that order, since a control
 * character inside a key would split it out of the redactor's sight — and cut: warnings and errors go to
 * stderr as `⚠ provider SDK: …`, info and debug to the verbose log. Never throws. (What the SDKs print
 * with `console` directly, past this logger, the CLI's console guard catches.)
 */
export function createSdkLogger(options: SdkLoggerOptions): SdkLogger {
  const { errorOutput, style, verboseLog } = options;
  const maxLength = options.maxLength ?? 400;
  const line = (message: string, rest: unknown[]) => {
    const parts = [message, ...rest].map((part) =>
      typeof part === 'string' ? part : inspect(part, { breakLength: Number.POSITIVE_INFINITY, depth: 3 }),
    );
    return cutText(oneLine(verboseLog.redact(stripControls(parts.join(' ')))), maxLength).text;
  };
  const warn: SdkLogFunction = (message, ...rest) => {
    try {
      errorOutput.write(`${style.yellow('⚠')} ${style.dim(`provider SDK: ${line(message, rest)}`)}\n`);
    } catch {
      // Logging is best effort.
    }
  };
  const verbose: SdkLogFunction = (message, ...rest) =>
    verboseLog.write(() => [`provider SDK: ${line(message, rest)}`]);
  return { error: warn, warn, info: verbose, debug: verbose };
}
