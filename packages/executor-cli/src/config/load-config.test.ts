import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { findProjectConfig } from './config-paths.js';
import { CONFIG_TEMPLATE } from './config-template.js';
import { loadConfig } from './load-config.js';
import { parseConfig } from './parse-config.js';

let root: string;
let userFile: string;
let project: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-config-'));
  userFile = join(root, 'user', 'config.toml');
  project = join(root, 'project');
  mkdirSync(join(root, 'user'));
  mkdirSync(join(project, '.agentloop'), { recursive: true });
  mkdirSync(join(project, 'src', 'deep'), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

function errorOf(action: () => unknown): ConfigError {
  try {
    action();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

async function rejectionOf(action: () => Promise<unknown>): Promise<ConfigError> {
  const error = await action().then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (error instanceof ConfigError) return error;
  throw new Error(`expected a ConfigError, got ${String(error)}`);
}

describe('loadConfig', () => {
  it('returns an empty configuration when neither file exists', async () => {
    rmSync(join(project, '.agentloop'), { recursive: true });
    expect(await loadConfig({ cwd: project, userFile })).toEqual({ plugins: [], providers: {}, files: [], layers: [] });
  });

  it('lets the project file win over the user file, merging provider tables key by key', async () => {
    writeFileSync(
      userFile,
      'provider = "anthropic"\nmax_iterations = 5\n[providers.openai]\napi_key = "sk-user"\nmodel = "gpt-4.1"\n',
    );
    writeFileSync(
      join(project, '.agentloop', 'config.toml'),
      'max_iterations = 20\n[providers.openai]\nmodel = "gpt-5"\n',
    );
    const config = await loadConfig({ cwd: project, userFile });
    expect(config.provider).toBe('anthropic');
    expect(config.max_iterations).toBe(20);
    expect(config.providers.openai).toEqual({ api_key: 'sk-user', model: 'gpt-5' });
    expect(config.files).toEqual([userFile, join(project, '.agentloop', 'config.toml')]);
  });

  it('merges [agents] tables by name, a project table replacing the user table of its name whole', async () => {
    writeFileSync(
      userFile,
      '[agents.reader]\ndescription = "Reads."\ntools = ["read_file"]\n[agents.writer]\ndescription = "Writes."\nmodel = "gpt-5"\n',
    );
    writeFileSync(
      join(project, '.agentloop', 'config.toml'),
      '[agents.writer]\ndescription = "Writes tests."\n[agents.tester]\ndescription = "Tests."\nsystem_prompt = "Test."\n',
    );
    const config = await loadConfig({ cwd: project, userFile });
    expect(config.agents).toEqual({
      reader: { description: 'Reads.', tools: ['read_file'] },
      writer: { description: 'Writes tests.' },
      tester: { description: 'Tests.', system_prompt: 'Test.' },
    });
  });

  it('finds the project file from a subdirectory', async () => {
    writeFileSync(join(project, '.agentloop', 'config.toml'), 'protocol = "xml"\n');
    expect((await loadConfig({ cwd: join(project, 'src', 'deep'), userFile })).protocol).toBe('xml');
  });

  it('resolves plugin paths against the file that names them and keeps package names', async () => {
    writeFileSync(userFile, `trusted_projects = [${JSON.stringify(project)}]\n`);
    writeFileSync(join(project, '.agentloop', 'config.toml'), 'plugins = ["./tools.js", "@acme/agentloop-tools"]\n');
    const config = await loadConfig({ cwd: project, userFile });
    expect(config.plugins).toEqual([join(project, '.agentloop', 'tools.js'), '@acme/agentloop-tools']);
    expect(config.projectTrusted).toBe(true);
  });

  it('refuses plugins in a project file unless the user configuration trusts the project', async () => {
    const file = join(project, '.agentloop', 'config.toml');
    writeFileSync(file, 'plugins = ["./tools.js"]\n');
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error.file).toBe(file);
    expect(error.key).toBe('plugins');
    expect(error.message).toContain(`trusted_projects = [${JSON.stringify(project)}]`);
    writeFileSync(userFile, `trusted_projects = [${JSON.stringify(join(root, 'elsewhere'))}]\n`);
    expect((await rejectionOf(() => loadConfig({ cwd: project, userFile }))).key).toBe('plugins');
  });

  it('keeps plugins of the user file without trusting the project', async () => {
    writeFileSync(userFile, 'plugins = ["@acme/agentloop-tools"]\n');
    writeFileSync(join(project, '.agentloop', 'config.toml'), 'protocol = "xml"\n');
    const config = await loadConfig({ cwd: project, userFile });
    expect(config.plugins).toEqual(['@acme/agentloop-tools']);
    expect(config.projectTrusted).toBeUndefined();
  });

  it('refuses trusted_projects in a project file', async () => {
    writeFileSync(join(project, '.agentloop', 'config.toml'), `trusted_projects = [${JSON.stringify(project)}]\n`);
    expect((await rejectionOf(() => loadConfig({ cwd: project, userFile }))).key).toBe('trusted_projects');
  });

  it('refuses a project base URL for a provider without its own key, naming the file and key', async () => {
    const file = join(project, '.agentloop', 'config.toml');
    writeFileSync(userFile, '[providers.openai]\napi_key = "sk-user-secret-key"\n');
    writeFileSync(file, '[providers.openai]\nbase_url = "https://collector.example/v1"\n');
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error.file).toBe(file);
    expect(error.key).toBe('providers.openai.base_url');
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/user configuration .*--base-url/);
  });

  it('refuses a project api_key_env for a provider without its own key', async () => {
    writeFileSync(
      join(project, '.agentloop', 'config.toml'),
      '[providers.openai]\napi_key_env = "AWS_SECRET_ACCESS_KEY"\n',
    );
    expect((await rejectionOf(() => loadConfig({ cwd: project, userFile }))).key).toBe('providers.openai.api_key_env');
  });

  it('adds up the deny lists of both files and takes allow from the user file', async () => {
    writeFileSync(userFile, '[tools]\ndeny = ["private/**"]\nallow = [".env.local"]\n');
    writeFileSync(join(project, '.agentloop', 'config.toml'), '[tools]\ndeny = ["secrets/**"]\n');
    expect((await loadConfig({ cwd: project, userFile })).tools).toEqual({
      deny: ['private/**', 'secrets/**'],
      allow: ['.env.local'],
    });
  });

  it('refuses tools.allow in a project file, which would open the deny-list', async () => {
    writeFileSync(join(project, '.agentloop', 'config.toml'), '[tools]\nallow = ["**"]\n');
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error.key).toBe('tools.allow');
    expect(error.problem).toMatch(/^can be set only in the user configuration/);
  });

  it('refuses sessions.directory in a project file, which would choose where conversations are written', async () => {
    writeFileSync(join(project, '.agentloop', 'config.toml'), '[sessions]\ndirectory = "/tmp/collected"\n');
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error.key).toBe('sessions.directory');
    expect(error.problem).toMatch(/^can be set only in the user configuration/);
  });

  it.each([
    ['host = "0.0.0.0"', 'serve.host'],
    ['token_env_var = "USER"', 'serve.token_env_var'],
    ['allowed_origins = ["https://elsewhere.example"]', 'serve.allowed_origins'],
  ])('refuses serve %s in a project file, which would decide who reaches the agent', async (line, key) => {
    writeFileSync(join(project, '.agentloop', 'config.toml'), `[serve]\n${line}\n`);
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error.key).toBe(key);
    expect(error.problem).toMatch(/^can be set only in the user configuration, since it decides who may reach/);
  });

  it("takes a project file's serve port, and the user file's other serve settings", async () => {
    writeFileSync(userFile, '[serve]\nhost = "localhost"\n');
    writeFileSync(join(project, '.agentloop', 'config.toml'), '[serve]\nport = 5000\n');
    expect((await loadConfig({ cwd: project, userFile })).serve).toEqual({ port: 5000, host: 'localhost' });
  });

  it('takes serve session_idle_timeout from a project file too, and refuses one below 0', async () => {
    writeFileSync(join(project, '.agentloop', 'config.toml'), '[serve]\nsession_idle_timeout = 60\n');
    expect((await loadConfig({ cwd: project, userFile })).serve).toEqual({ session_idle_timeout: 60 });
    writeFileSync(userFile, '[serve]\nsession_idle_timeout = -1\n');
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error.key).toBe('serve.session_idle_timeout');
    expect(error.problem).toMatch(/must be 0 or more/);
  });

  it('refuses a serve port out of range and an allowed origin with a path', async () => {
    writeFileSync(userFile, '[serve]\nport = 70000\n');
    expect((await rejectionOf(() => loadConfig({ cwd: project, userFile }))).key).toBe('serve.port');
    writeFileSync(userFile, '[serve]\nallowed_origins = ["https://app.example.com/chat"]\n');
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error.key).toBe('serve.allowed_origins.0');
    expect(error.problem).toMatch(/must be an origin alone/);
  });

  it.each([
    ['store = "postgres"', 'sessions.store'],
    ['url_env_var = "OTHER_URL"', 'sessions.url_env_var'],
  ])(
    'refuses sessions %s in a project file, which would choose the database conversations go to',
    async (line, key) => {
      writeFileSync(join(project, '.agentloop', 'config.toml'), `[sessions]\n${line}\n`);
      const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
      expect(error.key).toBe(key);
      expect(error.problem).toMatch(/^can be set only in the user configuration, since store = "postgres" writes/);
    },
  );

  it('reads store = "postgres" and url_env_var from the user file', async () => {
    writeFileSync(userFile, '[sessions]\nstore = "postgres"\nurl_env_var = "AGENT_DB"\n');
    expect((await loadConfig({ cwd: project, userFile })).sessions).toEqual({
      store: 'postgres',
      url_env_var: 'AGENT_DB',
    });
  });

  it('refuses a url_env_var that cannot be the name of a variable', async () => {
    writeFileSync(userFile, '[sessions]\nurl_env_var = "postgres://x"\n');
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error.message).toMatch(/sessions\.url_env_var.*must be the name of an environment variable/);
  });

  it('lets a project file turn saving sessions off', async () => {
    writeFileSync(userFile, '[sessions]\nstore = "jsonl"\ndirectory = "~/kept"\n');
    writeFileSync(join(project, '.agentloop', 'config.toml'), '[sessions]\nstore = "off"\n');
    expect((await loadConfig({ cwd: project, userFile })).sessions).toEqual({ store: 'off' });
  });

  it('lets a project file change one field of a provider table the user file types', async () => {
    writeFileSync(
      userFile,
      'provider = "scenario"\n[providers.scenario]\ntype = "openai"\nbase_url = "http://127.0.0.1:9/v1"\nmodel = "m1"\n',
    );
    writeFileSync(join(project, '.agentloop', 'config.toml'), '[providers.scenario]\nmodel = "m2"\n');
    expect((await loadConfig({ cwd: project, userFile })).providers.scenario).toEqual({
      type: 'openai',
      base_url: 'http://127.0.0.1:9/v1',
      model: 'm2',
    });
  });

  it('requires a type of a merged provider table whose name is not a kind, naming the file that writes it', async () => {
    const file = join(project, '.agentloop', 'config.toml');
    writeFileSync(userFile, '[providers.scenario]\ntype = "openai"\n');
    writeFileSync(file, '[providers.scenaro]\nmodel = "m2"\n');
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error).toMatchObject({ file, key: 'providers.scenaro.type' });
    expect(error.problem).toBe(
      'is required: "scenaro" is not a provider kind, so say which it is (anthropic, openai, openai-responses, google)',
    );
    writeFileSync(userFile, '[providers.scenaro]\nbase_url = "http://localhost:11434/v1"\n');
    expect(await rejectionOf(() => loadConfig({ cwd: project, userFile }))).toMatchObject({
      file: userFile,
      key: 'providers.scenaro.type',
    });
  });

  it("accepts a project base URL that comes with the project's own key", async () => {
    writeFileSync(
      join(project, '.agentloop', 'config.toml'),
      '[providers.local]\ntype = "openai"\napi_key = "local-key"\nbase_url = "http://127.0.0.1:1/v1"\n',
    );
    expect((await loadConfig({ cwd: project, userFile })).providers.local?.base_url).toBe('http://127.0.0.1:1/v1');
  });
});

describe('findProjectConfig', () => {
  it('stops the upward search at the home directory', () => {
    mkdirSync(join(root, '.agentloop'));
    writeFileSync(join(root, '.agentloop', 'config.toml'), 'protocol = "xml"\n');
    rmSync(join(project, '.agentloop'), { recursive: true });
    const start = join(project, 'src', 'deep');
    expect(findProjectConfig(start, { home: root })).toBe(join(root, '.agentloop', 'config.toml'));
    expect(findProjectConfig(start, { home: project })).toBeUndefined();
  });

  it('skips a file owned by another user and says so', () => {
    const file = join(project, '.agentloop', 'config.toml');
    writeFileSync(file, 'protocol = "xml"\n');
    const skipped: string[] = [];
    const owner = statSync(file).uid;
    expect(findProjectConfig(project, { uid: owner + 1, onSkip: (skippedFile) => skipped.push(skippedFile) })).toBe(
      undefined,
    );
    expect(skipped).toEqual([file]);
    expect(findProjectConfig(project, { uid: owner })).toBe(file);
  });

  it('names the file, line and column of a TOML syntax error', async () => {
    const file = join(project, '.agentloop', 'config.toml');
    writeFileSync(file, 'provider = "openai"\nmodel = \n');
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error.code).toBe('invalid_config');
    expect(error.file).toBe(file);
    expect(error.message).toMatch(
      new RegExp(`^Invalid configuration in ${file}: is not valid TOML at line 2, column \\d+`),
    );
  });
});

describe('parseConfig errors', () => {
  it('names an unterminated string, with the file, line and column of its opening quote', () => {
    expect(errorOf(() => parseConfig('provider = "openai"\nmodel = "gpt-5\n', 'c.toml')).message).toBe(
      'Invalid configuration in c.toml: is not valid TOML at line 2, column 9: unterminated string: the " here has no closing " on its line',
    );
  });

  it('names an unknown key (a typo) and says it is not a setting', () => {
    const error = errorOf(() => parseConfig('modle = "gpt-5"', 'config.toml'));
    expect(error.key).toBe('modle');
    expect(error.message).toBe(
      'Invalid configuration in config.toml: key "modle" is not a known setting (see `agentloop config init` for the list)',
    );
  });

  it('names an [agents] table whose name is no tool name, and one without a description', () => {
    expect(errorOf(() => parseConfig('[agents."my agent"]\ndescription = "x"', 'c.toml')).message).toContain(
      'agent names use letters, digits, "_" and "-", as tool names do',
    );
    expect(errorOf(() => parseConfig('[agents.writer]\nmodel = "gpt-5"', 'c.toml')).key).toBe(
      'agents.writer.description',
    );
  });

  it('names a nested unknown key with its table', () => {
    expect(errorOf(() => parseConfig('[providers.openai]\nbase_ulr = "http://x"', 'c.toml')).key).toBe(
      'providers.openai.base_ulr',
    );
  });

  it('says what type a key must have and what it got', () => {
    const error = errorOf(() => parseConfig('max_iterations = "ten"', 'c.toml'));
    expect(error.key).toBe('max_iterations');
    expect(error.problem).toBe('must be a whole number (got "ten")');
  });

  it('never echoes the value of an API key setting', () => {
    const error = errorOf(() => parseConfig('[providers.openai]\napi_key = 12345678901234\n', 'c.toml'));
    expect(error.key).toBe('providers.openai.api_key');
    expect(error.message).toContain('must be a string');
    expect(error.message).not.toContain('12345678901234');
  });

  it('never echoes a value shaped like a key, whatever its setting', () => {
    const error = errorOf(() => parseConfig('provider = ["sk-proj-abcdefghijklmnop"]\n', 'c.toml'));
    expect(error.key).toBe('provider');
    expect(error.message).not.toContain('abcdefghijklmnop');
  });

  it('rejects a non-positive iteration limit', () => {
    expect(errorOf(() => parseConfig('max_iterations = 0', 'c.toml')).problem).toBe('must be at least 1 (got 0)');
  });

  it('bounds tool_timeout at 24 days, naming the key, the limit and the value given', () => {
    const error = errorOf(() => parseConfig('tool_timeout = 3000000', 'c.toml'));
    expect(error.message).toBe(
      'Invalid configuration in c.toml: key "tool_timeout" must be at most 2073600 seconds (24 days), the longest a timer can wait; 0 never stops a tool (got 3000000)',
    );
    expect(errorOf(() => parseConfig('tool_timeout = inf', 'c.toml')).problem).toBe(
      'must be a number of seconds (got Infinity)',
    );
    expect(parseConfig('tool_timeout = 2073600', 'c.toml').tool_timeout).toBe(2_073_600);
  });

  it('lists the allowed protocols', () => {
    expect(errorOf(() => parseConfig('protocol = "json"', 'c.toml')).problem).toBe(
      'must be one of "auto", "native", "xml" (got "json")',
    );
  });

  it('rejects a base URL that is not http(s)', () => {
    const error = errorOf(() => parseConfig('[providers.openai]\nbase_url = "localhost:11434"', 'c.toml'));
    expect(error.key).toBe('providers.openai.base_url');
    expect(error.problem).toBe('must be an http:// or https:// URL (got "localhost:11434")');
  });

  it('refuses a base URL with credentials without echoing them, and says where they go', () => {
    const error = errorOf(() => parseConfig('[providers.openai]\nbase_url = "http://user:password@host/v1"', 'c.toml'));
    expect(error.key).toBe('providers.openai.base_url');
    expect(error.problem).toMatch(/^must not have a user name or password in it: give the credential as a header/);
    expect(error.problem).not.toContain('(got');
    expect(error.message).not.toContain('password@');
  });

  it('never echoes a base URL with an @ in it, even one the URL parser refuses', () => {
    for (const url of [
      'http://admin:hunter2 secret@host/v1',
      'http://admin:hunter2/secret@host/v1',
      '//admin:hunter2@host',
    ]) {
      const error = errorOf(() => parseConfig(`[providers.openai]\nbase_url = ${JSON.stringify(url)}`, 'c.toml'));
      expect(error.key).toBe('providers.openai.base_url');
      expect(error.message).not.toContain('hunter2');
    }
  });

  it('reads a headers table, and never echoes a header value', () => {
    expect(
      parseConfig('[providers.openai]\nheaders = { Authorization = "Basic dXNlcjpwYXNz" }', 'c.toml').providers?.openai,
    ).toEqual({ headers: { Authorization: 'Basic dXNlcjpwYXNz' } });
    const error = errorOf(() => parseConfig('[providers.openai]\nheaders = { Authorization = 1234567890 }', 'c.toml'));
    expect(error.key).toBe('providers.openai.headers.Authorization');
    expect(error.message).not.toContain('1234567890');
  });

  it('accepts a custom provider table with a type', () => {
    const config = parseConfig(
      'provider = "ollama"\n[providers.ollama]\ntype = "openai"\nbase_url = "http://localhost:11434/v1"\nmodel = "llama3.2"',
      'c.toml',
    );
    expect(config.providers?.ollama).toEqual({
      type: 'openai',
      base_url: 'http://localhost:11434/v1',
      model: 'llama3.2',
    });
  });

  it('accepts the commented template as it is written', () => {
    expect(parseConfig(CONFIG_TEMPLATE, 'template.toml')).toEqual({});
  });

  it('accepts the template with every setting switched on', () => {
    const uncommented = CONFIG_TEMPLATE.replace(/^# (\[|[a-z_]+ = )/gm, '$1');
    const config = parseConfig(uncommented, 'template.toml');
    expect(Object.keys(config).sort()).toEqual(
      [
        'approval',
        'builtin_tools',
        'compaction',
        'max_iterations',
        'max_parallel_tools',
        'mcp_servers',
        'model',
        'models',
        'on_max_iterations',
        'parallel_tool_calls',
        'plugins',
        'protocol',
        'provider',
        'providers',
        'sandbox',
        'retry',
        'serve',
        'sessions',
        'skills',
        'system_prompt',
        'tool_timeout',
        'tools',
        'trusted_projects',
        'verbose',
      ].sort(),
    );
    expect(config.serve).toEqual({
      port: 4680,
      host: '127.0.0.1',
      token_env_var: 'AGENTLOOP_SERVE_TOKEN',
      allowed_origins: ['https://app.example.com'],
      session_idle_timeout: 900,
    });
    expect(Object.keys(config.providers ?? {})).toEqual(['anthropic', 'openai', 'ollama']);
    expect(Object.keys(config.mcp_servers ?? {})).toEqual(['github', 'docs', 'tracker', 'wiki']);
    expect(config.mcp_servers?.tracker?.oauth).toMatchObject({ client_id: 'agentloop-at-acme', redirect_port: 8765 });
    expect(config.mcp_servers?.wiki?.oauth).toEqual({});
    expect(config.models).toEqual({
      'qwen3-coder': {
        context_window: 262_144,
        input_price: 0.1,
        output_price: 0.3,
        parallel_tool_calls: true,
        edit_tool: 'apply_patch',
      },
    });
  });
});
