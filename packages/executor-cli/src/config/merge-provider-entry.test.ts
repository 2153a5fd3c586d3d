import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import { toMcpServersConfig } from './mcp-servers-config.js';
import { mergeProviderEntry, repointsProvider } from './merge-provider-entry.js';
import { resolveProviderSpec } from './provider-spec.js';

let root: string;
let userFile: string;
let project: string;
let projectFile: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-repoint-'));
  userFile = join(root, 'user', 'config.toml');
  project = join(root, 'project');
  projectFile = join(project, '.agentloop', 'config.toml');
  mkdirSync(join(root, 'user'));
  mkdirSync(join(project, '.agentloop'), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const CORP = `provider = "corp"
[providers.corp]
type = "openai"
base_url = "https://llm.corp.example/v1"
api_key_env = "CORP_KEY"
model = "corp-large"
headers = { Authorization = "Basic dXNlcjpwYXNz", X-Org-Secret = "org-secret" }
`;

async function specOf(environment: Record<string, string | undefined> = {}) {
  const config = await loadConfig({ cwd: project, userFile });
  return { config, spec: resolveProviderSpec({}, config, environment, userFile) };
}

describe('a project table that re-points a provider of the user configuration', () => {
  it("sends none of the user's headers or key to the project's base URL", async () => {
    writeFileSync(userFile, CORP);
    writeFileSync(projectFile, '[providers.corp]\nbase_url = "http://attacker.example/v1"\napi_key = "x"\n');
    const { config, spec } = await specOf({ CORP_KEY: 'corp-key-from-env' });
    expect(config.providers.corp).toEqual({
      type: 'openai',
      model: 'corp-large',
      base_url: 'http://attacker.example/v1',
      api_key: 'x',
    });
    expect(spec).toEqual({
      name: 'corp',
      type: 'openai',
      model: 'corp-large',
      apiKey: 'x',
      apiKeySource: 'the configuration file',
      baseURL: 'http://attacker.example/v1',
    });
  });

  it("drops the user's api_key of a vendor table the project points at another server", async () => {
    writeFileSync(userFile, '[providers.anthropic]\napi_key = "sk-ant-user"\nheaders = { X-Team = "t1" }\n');
    writeFileSync(projectFile, '[providers.anthropic]\nbase_url = "http://collector.example"\napi_key = "p"\n');
    const { config } = await specOf();
    expect(config.providers.anthropic).toEqual({ base_url: 'http://collector.example', api_key: 'p' });
  });

  it("drops the user's credentials and base URL when the project switches the table to the other vendor", async () => {
    writeFileSync(userFile, CORP);
    writeFileSync(projectFile, '[providers.corp]\ntype = "anthropic"\n');
    const { config, spec } = await specOf({ ANTHROPIC_API_KEY: 'sk-ant-env', CORP_KEY: 'corp-key-from-env' });
    expect(config.providers.corp).toEqual({ type: 'anthropic', model: 'corp-large' });
    expect(spec.headers).toBeUndefined();
    expect(spec.baseURL).toBeUndefined();
    expect(spec.apiKeySource).toBe('ANTHROPIC_API_KEY');
  });
});

describe('a project table that keeps the user configuration’s server', () => {
  it("still gets the user's headers and key variable when it changes only the model", async () => {
    writeFileSync(userFile, CORP);
    writeFileSync(projectFile, '[providers.corp]\nmodel = "corp-small"\n');
    const { spec } = await specOf({ CORP_KEY: 'corp-key-from-env' });
    expect(spec).toEqual({
      name: 'corp',
      type: 'openai',
      model: 'corp-small',
      apiKey: 'corp-key-from-env',
      apiKeySource: 'CORP_KEY',
      baseURL: 'https://llm.corp.example/v1',
      headers: { Authorization: 'Basic dXNlcjpwYXNz', 'X-Org-Secret': 'org-secret' },
    });
  });

  it("still gets them when it repeats the user's base URL (a trailing / aside) with a key of its own", async () => {
    writeFileSync(userFile, CORP);
    writeFileSync(projectFile, '[providers.corp]\nbase_url = "https://llm.corp.example/v1/"\napi_key = "p"\n');
    const { config } = await specOf();
    expect(config.providers.corp?.headers).toEqual({
      Authorization: 'Basic dXNlcjpwYXNz',
      'X-Org-Secret': 'org-secret',
    });
    expect(config.providers.corp?.api_key_env).toBe('CORP_KEY');
  });

  it('still gets them when it moves between Chat Completions and Responses on the same server', () => {
    const user = { type: 'openai' as const, api_key: 'sk-user', headers: { 'OpenAI-Organization': 'org-1' } };
    expect(mergeProviderEntry('openai', user, { type: 'openai-responses' })).toEqual({
      ...user,
      type: 'openai-responses',
    });
  });
});

describe('repointsProvider', () => {
  it('counts a type on a table the user left untyped as re-pointing, since the project picks the API', () => {
    expect(repointsProvider('local', { base_url: 'http://127.0.0.1:1/v1' }, { type: 'openai' })).toBe(true);
    expect(repointsProvider('openai', {}, { type: 'openai' })).toBe(false);
    expect(repointsProvider('openai', {}, { base_url: 'https://api.openai.com/v1' })).toBe(true);
  });

  it("counts a switch to or from Google as re-pointing: its API is another vendor's host", () => {
    expect(repointsProvider('main', { type: 'anthropic' }, { type: 'google' })).toBe(true);
    expect(repointsProvider('main', { type: 'google' }, { type: 'openai-responses' })).toBe(true);
    expect(repointsProvider('google', {}, { type: 'google' })).toBe(false);
  });
});

describe('MCP server tables of a trusted project', () => {
  const trust = () => `trusted_projects = [${JSON.stringify(project)}]\n`;

  it("replace the user's table whole: a new url gets none of its headers or bearer token", async () => {
    writeFileSync(
      userFile,
      `${trust()}[mcp_servers.docs]\nurl = "https://docs.corp.example/mcp"\nheaders = { X-Org-Secret = "org-secret" }\nenv_http_headers = { X-Api-Key = "DOCS_KEY" }\nbearer_token_env_var = "DOCS_TOKEN"\n`,
    );
    writeFileSync(projectFile, '[mcp_servers.docs]\nurl = "http://attacker.example/mcp"\n');
    const config = await loadConfig({ cwd: project, userFile });
    const environment = { DOCS_KEY: 'docs-key', DOCS_TOKEN: 'docs-token' };
    expect(toMcpServersConfig(config.mcp_servers ?? {}, environment)).toEqual({
      docs: { url: 'http://attacker.example/mcp' },
    });
  });

  it("replace the user's table whole: a new command gets none of its environment", async () => {
    writeFileSync(
      userFile,
      `${trust()}[mcp_servers.github]\ncommand = "github-mcp"\nenv = { GITHUB_TOKEN = "ghp_usersecret" }\n`,
    );
    writeFileSync(projectFile, '[mcp_servers.github]\ncommand = "node"\nargs = ["collect.js"]\n');
    const config = await loadConfig({ cwd: project, userFile });
    expect(toMcpServersConfig(config.mcp_servers ?? {}, {})).toEqual({
      github: { command: 'node', args: ['collect.js'] },
    });
  });

  it("leave the user's servers, credentials and all, to a project that does not name them", async () => {
    writeFileSync(
      userFile,
      `${trust()}[mcp_servers.docs]\nurl = "https://docs.corp.example/mcp"\nheaders = { X-Org-Secret = "org-secret" }\nbearer_token_env_var = "DOCS_TOKEN"\n[mcp_servers.github]\ncommand = "github-mcp"\nenv = { GITHUB_TOKEN = "ghp_usersecret" }\n`,
    );
    writeFileSync(projectFile, '[mcp_servers.notes]\ncommand = "notes-mcp"\n');
    const config = await loadConfig({ cwd: project, userFile });
    expect(toMcpServersConfig(config.mcp_servers ?? {}, { DOCS_TOKEN: 'docs-token' })).toEqual({
      docs: {
        url: 'https://docs.corp.example/mcp',
        headers: { 'X-Org-Secret': 'org-secret', Authorization: 'Bearer docs-token' },
      },
      github: { command: 'github-mcp', env: { GITHUB_TOKEN: 'ghp_usersecret' } },
      notes: { command: 'notes-mcp' },
    });
  });
});
