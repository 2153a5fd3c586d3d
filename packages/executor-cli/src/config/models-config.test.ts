import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { loadConfig } from './load-config.js';
import { modelOverrides } from './model-overrides.js';
import { parseConfig } from './parse-config.js';
import { resolveProviderSpec } from './provider-spec.js';

let root: string;
let userFile: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-models-config-'));
  userFile = join(root, 'user', 'config.toml');
  project = join(root, 'project');
  mkdirSync(join(root, 'user'));
  mkdirSync(join(project, '.agentloop'), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function problemOf(text: string): { key: string | undefined; problem: string | undefined } {
  try {
    parseConfig(text, 'c.toml');
  } catch (error) {
    if (error instanceof ConfigError) return { key: error.key, problem: error.problem };
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('[models."NAME"]', () => {
  it("becomes the providers' models option, each setting under the model table's name", () => {
    const config = parseConfig(
      [
        '[models."qwen3-coder:30b"]',
        'context_window = 262144',
        'input_price = 0.1',
        'output_price = 0.3',
        'parallel_tool_calls = true',
        'edit_tool = "apply_patch"',
        '[models.qwen3]',
        'context_window = 40960',
      ].join('\n'),
      'c.toml',
    );
    expect(modelOverrides(config.models ?? {})).toEqual({
      'qwen3-coder:30b': {
        contextWindow: 262_144,
        pricing: { inputUsdPerMillion: 0.1, outputUsdPerMillion: 0.3 },
        parallelToolCalls: true,
        editTool: 'apply_patch',
      },
      qwen3: { contextWindow: 40_960 },
    });
  });

  it('says what is wrong with a setting, naming the model', () => {
    expect(problemOf('[models.m]\nedit_tool = "patch"')).toEqual({
      key: 'models.m.edit_tool',
      problem: 'must be "edit_file" or "apply_patch" (got "patch")',
    });
    expect(problemOf('[models.m]\ncontext_window = 0')).toMatchObject({
      key: 'models.m.context_window',
      problem: 'must be at least 1 token (got 0)',
    });
    expect(problemOf('[models.m]\ninput_price = 3')).toMatchObject({
      key: 'models.m',
      problem: expect.stringContaining('input_price and output_price go together: give both'),
    });
    expect(problemOf('[models.m]\ncontext_windw = 8192')).toMatchObject({ key: 'models.m.context_windw' });
  });

  it('merges model by model and key by key, the project over the user', async () => {
    writeFileSync(
      userFile,
      '[models.m]\ncontext_window = 8192\ninput_price = 1\noutput_price = 2\n[models.u]\nedit_tool = "apply_patch"\n',
    );
    writeFileSync(join(project, '.agentloop', 'config.toml'), '[models.m]\ncontext_window = 16384\n');
    const config = await loadConfig({ cwd: project, userFile });
    expect(config.models).toEqual({
      m: { context_window: 16_384, input_price: 1, output_price: 2 },
      u: { edit_tool: 'apply_patch' },
    });
  });

  it('reaches the provider spec, so every provider of the session (after /model too) gets it', () => {
    const spec = resolveProviderSpec(
      { model: 'qwen3:8b', baseURL: 'http://127.0.0.1:11434/v1' },
      { plugins: [], providers: {}, files: [], models: { qwen3: { context_window: 40_960 } } },
      {},
      userFile,
    );
    expect(spec.models).toEqual({ qwen3: { contextWindow: 40_960 } });
  });
});
