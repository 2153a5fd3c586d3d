import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { NoProviderError } from './no-provider-error.js';
import { resolveSessionSettings } from './session-settings.js';

let root: string;
let userConfigFile: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-settings-'));
  userConfigFile = join(root, 'user.toml');
  mkdirSync(join(root, 'project', '.agentloop'), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('resolveSessionSettings', () => {
  it('uses the defaults with only an API key in the environment', async () => {
    const settings = await resolveSessionSettings(
      {},
      { environment: { ANTHROPIC_API_KEY: 'k' }, userConfigFile, cwd: root },
    );
    expect(settings).toMatchObject({
      cwd: root,
      projectDir: root,
      verbose: false,
      builtinTools: true,
      plugins: [],
    });
    expect(settings.provider).toMatchObject({ name: 'anthropic', model: 'claude-sonnet-4-6' });
    expect(settings.systemPrompt).toBeUndefined();
    // Left to the agent, whose defaults are the only ones.
    expect('maxIterations' in settings).toBe(false);
    expect('protocol' in settings).toBe(false);
  });

  it('lets flags win over the project file, which wins over the user file', async () => {
    writeFileSync(userConfigFile, 'max_iterations = 5\nprotocol = "native"\nsystem_prompt = "user"\nverbose = true\n');
    writeFileSync(
      join(root, 'project', '.agentloop', 'config.toml'),
      'max_iterations = 8\nsystem_prompt = "project"\n',
    );
    const settings = await resolveSessionSettings(
      { cwd: 'project', protocol: 'xml' },
      { environment: { OPENAI_API_KEY: 'k' }, userConfigFile, cwd: root },
    );
    expect(settings).toMatchObject({
      cwd: join(root, 'project'),
      protocol: 'xml',
      maxIterations: 8,
      systemPrompt: 'project',
      verbose: true,
    });
    expect(settings.projectDir).toBe(join(root, 'project'));
  });

  it('reads tool_timeout in seconds, the project file winning, and leaves it to the agent when unset', async () => {
    writeFileSync(userConfigFile, 'tool_timeout = 600\n');
    writeFileSync(join(root, 'project', '.agentloop', 'config.toml'), 'tool_timeout = 2.5\n');
    const sources = { environment: { OPENAI_API_KEY: 'k' }, userConfigFile, cwd: root };
    expect((await resolveSessionSettings({ cwd: 'project' }, sources)).toolTimeoutMs).toBe(2_500);
    expect((await resolveSessionSettings({}, sources)).toolTimeoutMs).toBe(600_000);
    writeFileSync(userConfigFile, '');
    expect((await resolveSessionSettings({}, sources)).toolTimeoutMs).toBeUndefined();
  });

  it('reads the loop options, the flag winning for on_max_iterations, and leaves unset ones to the agent', async () => {
    writeFileSync(userConfigFile, 'on_max_iterations = "stop"\nmax_parallel_tools = 2\nparallel_tool_calls = false\n');
    const sources = { environment: { OPENAI_API_KEY: 'k' }, userConfigFile, cwd: root };
    expect(await resolveSessionSettings({}, sources)).toMatchObject({
      onMaxIterations: 'stop',
      maxParallelTools: 2,
      parallelToolCalls: false,
    });
    expect((await resolveSessionSettings({ onMaxIterations: 'wrap-up' }, sources)).onMaxIterations).toBe('wrap-up');
    writeFileSync(userConfigFile, '');
    const defaults = await resolveSessionSettings({}, sources);
    expect(Object.keys(defaults)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^(onMaxIterations|maxParallelTools|parallelToolCalls)$/)]),
    );
  });

  it.each([
    ['on_max_iterations = "halt"', 'on_max_iterations', 'must be one of "wrap-up", "stop" (got "halt")'],
    ['max_parallel_tools = 0', 'max_parallel_tools', 'must be at least 1 (got 0)'],
    ['max_parallel_tools = 2.5', 'max_parallel_tools', 'must be a whole number (got 2.5)'],
    ['parallel_tool_calls = "no"', 'parallel_tool_calls', 'must be true or false (got "no")'],
  ])('rejects %s, saying what the key takes', async (line, key, problem) => {
    writeFileSync(userConfigFile, `${line}\n`);
    const error = await resolveSessionSettings(
      {},
      { environment: { OPENAI_API_KEY: 'k' }, userConfigFile, cwd: root },
    ).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ key, problem });
  });

  it('takes --record relative to where the command runs, not to --cwd, and records nothing without it', async () => {
    const sources = { environment: { OPENAI_API_KEY: 'k' }, userConfigFile, cwd: root };
    const settings = await resolveSessionSettings({ cwd: 'project', record: 'cassettes/run.jsonl' }, sources);
    expect(settings.recordFile).toBe(join(root, 'cassettes', 'run.jsonl'));
    expect((await resolveSessionSettings({ record: '/tmp/a.jsonl' }, sources)).recordFile).toBe('/tmp/a.jsonl');
    expect((await resolveSessionSettings({}, sources)).recordFile).toBeUndefined();
  });

  describe('choosing the model', () => {
    const projectFile = () => join(root, 'project', '.agentloop', 'config.toml');
    const scenario = '[providers.scenario]\ntype = "openai"\nbase_url = "http://127.0.0.1:9/v1"\n';
    const settingsIn = (flags = {}, environment: Record<string, string> = {}) =>
      resolveSessionSettings({ cwd: 'project', ...flags }, { environment, userConfigFile, cwd: root });

    it("takes a file's top-level model over its provider table's", async () => {
      writeFileSync(userConfigFile, `provider = "scenario"\nmodel = "m-top"\n${scenario}model = "m-table"\n`);
      expect((await settingsIn()).provider).toMatchObject({ name: 'scenario', model: 'm-top' });
    });

    it("takes the project's top-level model over the user's provider table", async () => {
      writeFileSync(userConfigFile, `provider = "scenario"\n${scenario}model = "m1"\n`);
      writeFileSync(projectFile(), 'model = "m2"\n');
      expect((await settingsIn()).provider).toMatchObject({ name: 'scenario', model: 'm2' });
    });

    it("takes the project's provider table over the user's top-level model", async () => {
      writeFileSync(userConfigFile, 'provider = "anthropic"\nmodel = "claude-opus-4-1"\n');
      writeFileSync(projectFile(), '[providers.anthropic]\nmodel = "claude-haiku-4-5"\n');
      expect((await settingsIn({}, { ANTHROPIC_API_KEY: 'k' })).provider.model).toBe('claude-haiku-4-5');
    });

    it("lets the project's provider:model choose the provider over the user's provider", async () => {
      writeFileSync(userConfigFile, 'provider = "anthropic"\n');
      writeFileSync(projectFile(), 'model = "openai:gpt-5"\n');
      const settings = await settingsIn({}, { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' });
      expect(settings.provider).toMatchObject({ name: 'openai', model: 'gpt-5' });
    });

    it('never gives a model written for one provider to another', async () => {
      writeFileSync(userConfigFile, 'model = "anthropic:claude-opus-4-1"\n');
      writeFileSync(projectFile(), 'provider = "openai"\n');
      const settings = await settingsIn({}, { ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' });
      expect(settings.provider).toMatchObject({ name: 'openai', model: 'gpt-5-mini' });
    });

    it('lets --model win over every file', async () => {
      writeFileSync(userConfigFile, `provider = "scenario"\nmodel = "m-top"\n${scenario}model = "m-table"\n`);
      writeFileSync(projectFile(), 'model = "m2"\n');
      expect((await settingsIn({ model: 'm-flag' })).provider.model).toBe('m-flag');
    });

    it('reports a file whose provider and model name different providers', async () => {
      writeFileSync(projectFile(), 'provider = "anthropic"\nmodel = "openai:gpt-5"\n');
      const error = await settingsIn({}, { ANTHROPIC_API_KEY: 'a' }).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toMatchObject({ file: projectFile(), key: 'model' });
      expect((error as ConfigError).problem).toBe(
        'is for the provider "openai", but provider = "anthropic" in the same file; name one provider (drop the "openai:" prefix, or the provider key)',
      );
    });

    it('reports --provider and a --model of another provider', async () => {
      await expect(
        settingsIn({ provider: 'openai', model: 'anthropic:claude-opus-4-1' }, { ANTHROPIC_API_KEY: 'a' }),
      ).rejects.toThrow(
        new NoProviderError(
          '--provider openai and --model anthropic:claude-opus-4-1 name different providers; give one of them (--model without the "anthropic:" prefix, or no --provider).',
        ),
      );
    });
  });

  it('rejects a working directory that does not exist', async () => {
    await expect(
      resolveSessionSettings({ cwd: 'nowhere' }, { environment: { OPENAI_API_KEY: 'k' }, userConfigFile, cwd: root }),
    ).rejects.toMatchObject({
      code: 'invalid_cwd',
      message: `--cwd nowhere: there is no directory ${join(root, 'nowhere')}.`,
    });
  });

  it('rejects with a ConfigError for an invalid file', async () => {
    writeFileSync(userConfigFile, 'verbose = "yes"\n');
    await expect(
      resolveSessionSettings({}, { environment: { OPENAI_API_KEY: 'k' }, userConfigFile, cwd: root }),
    ).rejects.toBeInstanceOf(ConfigError);
  });

  it('rejects with a NoProviderError when nothing names a provider', async () => {
    await expect(resolveSessionSettings({}, { environment: {}, userConfigFile, cwd: root })).rejects.toBeInstanceOf(
      NoProviderError,
    );
  });
});
