import { describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { MemoryOutput } from '../test-support/index.js';
import { createRedactor } from './redact.js';
import { VerboseLog } from './verbose-log.js';

describe('VerboseLog', () => {
  it('writes lines with secrets redacted and terminal control sequences removed', () => {
    const output = new MemoryOutput();
    const log = new VerboseLog(output, createStyle(false), createRedactor(['secret-value-1234']), true);
    log.write(() => ['result: \x1b]0;pwned\x07ok\x1b[2J key secret-value-1234']);
    expect(output.text).toBe('result: ok key [REDACTED]\n');
  });

  it('strips control sequences before it redacts, so one inside a key does not hide the key', () => {
    const output = new MemoryOutput();
    const log = new VerboseLog(output, createStyle(false), createRedactor(['secret-value-1234']), true);
    log.write(() => ['key secret-\x1b[0mvalue-1234']);
    expect(output.text).toBe('key [REDACTED]\n');
  });
});
