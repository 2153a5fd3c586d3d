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
      protocol: 'auto',
      maxIterations: 10,
      verbose: false,
      builtinTools: true,
      plugins: [],
    });
    expect(settings.provider).toMatchObject({ name: 'anthropic', model: 'claude-sonnet-4-6' });
    expect(settings.systemPrompt).toBeUndefined();
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
