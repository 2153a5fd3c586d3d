import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { CONFIG_TEMPLATE } from './config-template.js';
import { loadConfig } from './load-config.js';
import { parseConfig } from './parse-config.js';
import { resolveSessionSettings } from './session-settings.js';

let root: string;
let userFile: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-safety-'));
  userFile = join(root, 'user.toml');
  project = join(root, 'project');
  mkdirSync(join(project, '.agentloop'), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const projectFile = () => join(project, '.agentloop', 'config.toml');

async function rejection(action: Promise<unknown>): Promise<ConfigError> {
  const error = await action.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (error instanceof ConfigError) return error;
  throw new Error(`expected a ConfigError, got ${String(error)}`);
}

function parseError(text: string): ConfigError {
  try {
    parseConfig(text, 'c.toml');
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the [approval] and [sandbox] tables', () => {
  it('reads the mode, the rules and the sandbox', () => {
    const config = parseConfig(
      '[approval]\nmode = "ask"\n[[approval.rules]]\ntool = "run_command"\ncommand = "npm test*"\naction = "allow"\n[sandbox]\nmode = "read-only"\nnetwork = true\n',
      'c.toml',
    );
    expect(config.approval).toEqual({
      mode: 'ask',
      rules: [{ tool: 'run_command', command: 'npm test*', action: 'allow' }],
    });
    expect(config.sandbox).toEqual({ mode: 'read-only', network: true });
  });

  it('reads the template’s examples once switched on', () => {
    const config = parseConfig(CONFIG_TEMPLATE.replace(/^# (\[|[a-z_]+ = )/gm, '$1'), 'template.toml');
    expect(config.approval?.rules).toEqual([
      { tool: 'run_command', command: 'npm test*', action: 'allow' },
      { tool: 'run_command', command: 'git push*', action: 'ask' },
    ]);
    expect(config.sandbox).toEqual({
      mode: 'workspace-write',
      network: false,
      pass_environment: ['DATABASE_URL', 'MY_APP_*'],
    });
  });

  it('reads the environment variables commands get beside their own, and names a bad one', async () => {
    writeFileSync(userFile, '[sandbox]\npass_environment = ["DATABASE_URL", "MY_APP_*"]\n');
    const settings = await resolveSessionSettings(
      {},
      { environment: { ANTHROPIC_API_KEY: 'k' }, userConfigFile: userFile, cwd: project },
    );
    expect(settings.sandbox).toEqual({
      mode: 'workspace-write',
      network: false,
      passEnvironment: ['DATABASE_URL', 'MY_APP_*'],
    });
    expect(parseError('[sandbox]\npass_environment = ["MY APP"]\n').message).toBe(
      'Invalid configuration in c.toml: key "sandbox.pass_environment.0" must be an environment variable\'s name such as "JAVA_HOME", or a prefix ending in * such as "MY_APP_*" (got "MY APP")',
    );
  });

  it('names the modes and actions when one is wrong, and the key of a typo', () => {
    expect(parseError('[approval]\nmode = "never"\n').message).toBe(
      'Invalid configuration in c.toml: key "approval.mode" must be "read-only", "ask", "auto" or "yolo" (got "never")',
    );
    expect(parseError('[[approval.rules]]\ntool = "run_command"\naction = "permit"\n').message).toBe(
      'Invalid configuration in c.toml: key "approval.rules.0.action" must be "allow", "ask" or "deny" (got "permit")',
    );
    expect(parseError('[[approval.rules]]\naction = "allow"\n').key).toBe('approval.rules.0.tool');
    expect(parseError('[[approval.rules]]\ntool = "x"\naction = "allow"\ncommands = "ls"\n').key).toBe(
      'approval.rules.0.commands',
    );
    expect(parseError('[sandbox]\nmode = "none"\n').message).toBe(
      'Invalid configuration in c.toml: key "sandbox.mode" must be "workspace-write", "read-only" or "off" (got "none")',
    );
    expect(parseError('approval = "auto"\n').message).toBe(
      'Invalid configuration in c.toml: key "approval" must be a table (got "auto")',
    );
  });

  it("lets the project's mode win and puts its rules before the user's", async () => {
    writeFileSync(
      userFile,
      '[approval]\nmode = "auto"\n[[approval.rules]]\ntool = "run_command"\ncommand = "npm test*"\naction = "allow"\n[sandbox]\nnetwork = true\n',
    );
    writeFileSync(
      projectFile(),
      '[approval]\nmode = "ask"\n[[approval.rules]]\ntool = "run_command"\ncommand = "npm test -- --update*"\naction = "ask"\n[sandbox]\nmode = "read-only"\n',
    );
    const config = await loadConfig({ cwd: project, userFile });
    expect(config.approval).toEqual({
      mode: 'ask',
      rules: [
        { tool: 'run_command', command: 'npm test -- --update*', action: 'ask' },
        { tool: 'run_command', command: 'npm test*', action: 'allow' },
      ],
    });
    expect(config.sandbox).toEqual({ mode: 'read-only', network: true });
  });

  it("keeps the user's deny rules ahead of the project's rules, so a project cannot make them an ask", async () => {
    writeFileSync(
      userFile,
      '[[approval.rules]]\ntool = "run_command"\ncommand = "npm test*"\naction = "allow"\n[[approval.rules]]\ntool = "run_command"\ncommand = "git push*"\naction = "deny"\n',
    );
    writeFileSync(projectFile(), '[[approval.rules]]\ntool = "run_command"\naction = "ask"\n');
    const config = await loadConfig({ cwd: project, userFile });
    expect(config.approval?.rules).toEqual([
      { tool: 'run_command', command: 'git push*', action: 'deny' },
      { tool: 'run_command', action: 'ask' },
      { tool: 'run_command', command: 'npm test*', action: 'allow' },
    ]);
  });

  it.each([
    ['[approval]\nmode = "yolo"\n', 'approval.mode', 'asks less than your "auto" mode'],
    ['[[approval.rules]]\ntool = "*"\naction = "allow"\n', 'approval.rules.0.action', 'allows calls without asking'],
    ['[sandbox]\nmode = "off"\n', 'sandbox.mode', 'confines commands less than your "workspace-write" sandbox'],
    ['[sandbox]\nnetwork = true\n', 'sandbox.network', 'lets commands use the network'],
    [
      '[sandbox]\npass_environment = ["AWS_*"]\n',
      'sandbox.pass_environment',
      'gives commands more of your environment variables',
    ],
  ])('refuses an untrusted project file that loosens approvals or the sandbox: %j', async (text, key, what) => {
    writeFileSync(projectFile(), text);
    const error = await rejection(loadConfig({ cwd: project, userFile }));
    expect(error.key).toBe(key);
    expect(error.problem).toBe(
      `${what}, which a project file may do only when you trust the project: add trusted_projects = [${JSON.stringify(project)}] to the user configuration (\`agentloop config path\` shows where it is), or set it there`,
    );
  });

  it('lets an untrusted project make things stricter, or match what the user allows', async () => {
    writeFileSync(userFile, '[approval]\nmode = "yolo"\n[sandbox]\nmode = "off"\nnetwork = true\n');
    writeFileSync(
      projectFile(),
      '[approval]\nmode = "yolo"\n[[approval.rules]]\ntool = "run_command"\ncommand = "rm *"\naction = "deny"\n[sandbox]\nmode = "off"\nnetwork = true\n',
    );
    await expect(loadConfig({ cwd: project, userFile })).resolves.toMatchObject({ approval: { mode: 'yolo' } });
    writeFileSync(userFile, '');
    writeFileSync(projectFile(), '[approval]\nmode = "read-only"\n[sandbox]\nmode = "read-only"\n');
    await expect(loadConfig({ cwd: project, userFile })).resolves.toMatchObject({
      approval: { mode: 'read-only' },
      sandbox: { mode: 'read-only' },
    });
  });

  it('lets a trusted project loosen them', async () => {
    writeFileSync(userFile, `trusted_projects = [${JSON.stringify(project)}]\n`);
    writeFileSync(projectFile(), '[approval]\nmode = "yolo"\n[sandbox]\nmode = "off"\n');
    await expect(loadConfig({ cwd: project, userFile })).resolves.toMatchObject({
      approval: { mode: 'yolo' },
      sandbox: { mode: 'off' },
    });
  });
});

describe('the session’s approvals and sandbox', () => {
  const sources = () => ({ environment: { ANTHROPIC_API_KEY: 'k' }, userConfigFile: userFile, cwd: project });

  it('default to auto and a workspace-write sandbox without network', async () => {
    const settings = await resolveSessionSettings({}, sources());
    expect(settings.approval).toEqual({ mode: 'auto', rules: [] });
    expect(settings.sandbox).toEqual({ mode: 'workspace-write', network: false });
  });

  it('take the flags over the configuration, keeping its rules', async () => {
    writeFileSync(
      userFile,
      '[approval]\nmode = "ask"\n[[approval.rules]]\ntool = "write_file"\naction = "deny"\n[sandbox]\nmode = "read-only"\n',
    );
    const settings = await resolveSessionSettings({ approval: 'yolo', sandbox: 'off' }, sources());
    expect(settings.approval).toEqual({ mode: 'yolo', rules: [{ tool: 'write_file', action: 'deny' }] });
    expect(settings.sandbox).toEqual({ mode: 'off', network: false });
  });
});
