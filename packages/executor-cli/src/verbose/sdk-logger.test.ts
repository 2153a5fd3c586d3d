import { describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { MemoryOutput } from '../test-support/index.js';
import { createRedactor } from './redact.js';
import { createSdkLogger } from './sdk-logger.js';
import { VerboseLog } from './verbose-log.js';

function logger(options: { verbose?: boolean; maxLength?: number } = {}) {
  const errorOutput = new MemoryOutput();
  const verboseOutput = new MemoryOutput();
  const verboseLog = new VerboseLog(
    verboseOutput,
    createStyle(false),
    createRedactor(['sk-session-secret-0123']),
    options.verbose ?? false,
  );
  const sdkLogger = createSdkLogger({
    errorOutput,
    style: createStyle(false),
    verboseLog,
    ...(options.maxLength ? { maxLength: options.maxLength } : {}),
  });
  return { sdkLogger, errorOutput, verboseOutput };
}

describe('createSdkLogger', () => {
  it("writes the SDK's errors and warnings to stderr on one line, stripped of control sequences and redacted", () => {
    const { sdkLogger, errorOutput } = logger();
    sdkLogger.error(
      'Could not parse message into JSON:',
      '{"oops \x1b]52;c;ZXZpbA==\x07\x9b2J\u202esk-session-secret-0123',
    );
    sdkLogger.error('From chunk:', ['event: x', 'data: {"oops \x1b]0;pwned\x07']);
    sdkLogger.warn('Anthropic: both keys set.\nUsing the key.');
    expect(errorOutput.text).toBe(
      [
        '⚠ provider SDK: Could not parse message into JSON: {"oops [REDACTED]',
        "⚠ provider SDK: From chunk: [ 'event: x', 'data: {\"oops \\x1B]0;pwned\\x07' ]",
        '⚠ provider SDK: Anthropic: both keys set. Using the key.',
        '',
      ].join('\n'),
    );
  });

  it('strips control sequences before it redacts, so one inside a key does not hide the key', () => {
    const { sdkLogger, errorOutput } = logger();
    sdkLogger.error('event:', 'sk-session-\x1b[0msecret-0123 and sk-session-\u202esecret-0123');
    expect(errorOutput.text).toBe('⚠ provider SDK: event: [REDACTED] and [REDACTED]\n');
  });

  it('cuts a long line', () => {
    const { sdkLogger, errorOutput } = logger({ maxLength: 40 });
    sdkLogger.error('Could not parse message into JSON:', 'x'.repeat(100));
    // Cut after the last whole word that fits.
    expect(errorOutput.text).toBe(`⚠ provider SDK: Could not parse message into JSON:…\n`);
  });

  it('sends info and debug lines to the verbose log, and only while it is on', () => {
    const quiet = logger();
    quiet.sdkLogger.debug('[log_1] sending request', { method: 'post' });
    expect(quiet.errorOutput.text + quiet.verboseOutput.text).toBe('');
    const verbose = logger({ verbose: true });
    verbose.sdkLogger.info('[log_1] response start\x1b[2J', { status: 200 });
    expect(verbose.verboseOutput.text).toBe('provider SDK: [log_1] response start { status: 200 }\n');
    expect(verbose.errorOutput.text).toBe('');
  });
});
