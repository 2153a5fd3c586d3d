import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { loadConfig } from './load-config.js';
import { parseConfig } from './parse-config.js';
import { compactionSettings, resolveSessionSettings } from './session-settings.js';

let root: string;
let userFile: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-compaction-'));
  userFile = join(root, 'user.toml');
  project = join(root, 'project');
  mkdirSync(join(project, '.agentloop'), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function problemOf(text: string): string {
  try {
    parseConfig(text, 'config.toml');
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the [compaction] table', () => {
  it('reads enabled, threshold and context_window', () => {
    expect(parseConfig('[compaction]\nenabled = true\nthreshold = 0.7\ncontext_window = 32000\n', 'c.toml')).toEqual({
      compaction: { enabled: true, threshold: 0.7, context_window: 32_000 },
    });
  });

  it.each([
    [
      'threshold = 0',
      'Invalid configuration in config.toml: key "compaction.threshold" must be above 0 and below 1, e.g. 0.8 for 80% of the context window (got 0)',
    ],
    [
      'threshold = 1',
      'Invalid configuration in config.toml: key "compaction.threshold" must be above 0 and below 1, e.g. 0.8 for 80% of the context window (got 1)',
    ],
    [
      'threshold = 80',
      'Invalid configuration in config.toml: key "compaction.threshold" must be above 0 and below 1, e.g. 0.8 for 80% of the context window (got 80)',
    ],
    [
      'threshold = "80%"',
      'Invalid configuration in config.toml: key "compaction.threshold" must be a number between 0 and 1, e.g. 0.8 for 80% of the context window (got "80%")',
    ],
    [
      'threshold = nan',
      'Invalid configuration in config.toml: key "compaction.threshold" must be a number between 0 and 1, e.g. 0.8 for 80% of the context window (got NaN)',
    ],
    [
      'context_window = 0',
      'Invalid configuration in config.toml: key "compaction.context_window" must be at least 1 token (got 0)',
    ],
    [
      'context_window = 1000.5',
      'Invalid configuration in config.toml: key "compaction.context_window" must be a whole number of tokens (got 1000.5)',
    ],
    [
      'enabled = "yes"',
      'Invalid configuration in config.toml: key "compaction.enabled" must be true or false (got "yes")',
    ],
    [
      'threshhold = 0.8',
      'Invalid configuration in config.toml: key "compaction.threshhold" is not a known setting (see `agentloop config init` for the list)',
    ],
  ])('refuses %s, saying what a good value is', (line, expected) => {
    expect(problemOf(`[compaction]\n${line}\n`)).toBe(expected);
  });

  it('merges the user’s and the project’s tables key by key, the project’s winning', async () => {
    writeFileSync(userFile, '[compaction]\ncontext_window = 32000\nthreshold = 0.9\n');
    writeFileSync(join(project, '.agentloop', 'config.toml'), '[compaction]\nthreshold = 0.5\n');
    const config = await loadConfig({ cwd: project, userFile });
    expect(config.compaction).toEqual({ context_window: 32_000, threshold: 0.5 });
  });

  it('gives the session the agent’s compaction and contextWindow options', async () => {
    writeFileSync(userFile, '[compaction]\nthreshold = 0.6\ncontext_window = 8192\n');
    const settings = await resolveSessionSettings(
      { cwd: 'project' },
      { environment: { OPENAI_API_KEY: 'k' }, userConfigFile: userFile, cwd: root },
    );
    expect(settings.compaction).toEqual({ threshold: 0.6 });
    expect(settings.contextWindow).toBe(8192);
  });
});

describe('compactionSettings', () => {
  it('leaves both options out without a table, or with a table that sets neither', () => {
    expect(compactionSettings(undefined)).toEqual({});
    expect(compactionSettings({ enabled: true })).toEqual({});
  });

  it('turns automatic compaction off with enabled = false, whatever the threshold', () => {
    expect(compactionSettings({ enabled: false, threshold: 0.5, context_window: 1000 })).toEqual({
      compaction: false,
      contextWindow: 1000,
    });
  });

  it('passes the threshold when compaction is on', () => {
    expect(compactionSettings({ threshold: 0.75 })).toEqual({ compaction: { threshold: 0.75 } });
  });
});
