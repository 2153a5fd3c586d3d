import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { loadConfig } from './load-config.js';
import { toMcpServersConfig } from './mcp-servers-config.js';

let root: string;
let userFile: string;
let project: string;
let projectFile: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-mcp-config-'));
  userFile = join(root, 'user', 'config.toml');
  project = join(root, 'project');
  projectFile = join(project, '.agentloop', 'config.toml');
  mkdirSync(join(root, 'user'));
  mkdirSync(join(project, '.agentloop'), { recursive: true });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

async function rejectionOf(action: () => Promise<unknown>): Promise<ConfigError> {
  const error = await action().then(
    () => undefined,
    (failure: unknown) => failure,
  );
  if (error instanceof ConfigError) return error;
  throw new Error(`expected a ConfigError, got ${String(error)}`);
}

const GITHUB = `
[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
env = { GITHUB_TOKEN = "t0k" }
cwd = "servers"
tool_timeout_sec = 90
startup_timeout_sec = 20
max_resource_bytes = 131072
enabled_tools = ["create_issue", "list_issues"]
disabled_tools = ["list_issues"]
`;

describe('[mcp_servers] in the configuration', () => {
  it('reads a stdio server as Codex users write it', async () => {
    writeFileSync(userFile, GITHUB);
    const config = await loadConfig({ cwd: project, userFile });
    expect(toMcpServersConfig(config.mcp_servers ?? {}, {})).toEqual({
      github: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: { GITHUB_TOKEN: 't0k' },
        cwd: join(root, 'user', 'servers'),
        toolTimeoutMs: 90_000,
        startupTimeoutMs: 20_000,
        maxResourceBytes: 131_072,
        includeTools: ['create_issue', 'list_issues'],
        excludeTools: ['list_issues'],
      },
    });
  });

  it('reads an HTTP server with headers, headers from the environment and a bearer token variable', async () => {
    writeFileSync(
      userFile,
      '[mcp_servers.docs]\nurl = "https://docs.example.com/mcp"\nheaders = { "X-Team" = "core" }\n' +
        'env_http_headers = { "X-Api-Key" = "DOCS_KEY" }\nbearer_token_env_var = "DOCS_TOKEN"\ntool_timeout = 5\n',
    );
    const config = await loadConfig({ cwd: project, userFile });
    expect(toMcpServersConfig(config.mcp_servers ?? {}, { DOCS_KEY: 'k', DOCS_TOKEN: 'tok' })).toEqual({
      docs: {
        url: 'https://docs.example.com/mcp',
        headers: { 'X-Team': 'core', 'X-Api-Key': 'k', Authorization: 'Bearer tok' },
        toolTimeoutMs: 5_000,
      },
    });
  });

  it('names the variable a header needs when it is not set', async () => {
    writeFileSync(
      userFile,
      '[mcp_servers.docs]\nurl = "https://docs.example.com/mcp"\nbearer_token_env_var = "DOCS_TOKEN"\n',
    );
    const config = await loadConfig({ cwd: project, userFile });
    let error: unknown;
    try {
      toMcpServersConfig(config.mcp_servers ?? {}, {});
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).key).toBe('mcp_servers.docs.bearer_token_env_var');
    expect((error as ConfigError).problem).toContain('DOCS_TOKEN, which is not set');
  });

  it.each([
    ['neither command nor url', '[mcp_servers.x]\nenabled = true\n', 'give "command"'],
    ['both', '[mcp_servers.x]\ncommand = "a"\nurl = "https://b"\n', 'not both'],
    [
      'headers for a command',
      '[mcp_servers.x]\ncommand = "a"\nheaders = { A = "b" }\n',
      '"headers" is for a server with "url"',
    ],
    ['a name with __', '[mcp_servers.a__b]\ncommand = "a"\n', 'must not contain "__"'],
    ['the name local', '[mcp_servers.local]\ncommand = "a"\n', '"local" names the agent\'s own tools'],
    ['an unknown key', '[mcp_servers.x]\ncommand = "a"\ncommnad = "b"\n', 'commnad'],
    [
      'a resource limit that is no whole number of bytes',
      '[mcp_servers.x]\ncommand = "a"\nmax_resource_bytes = 0.5\n',
      'key "mcp_servers.x.max_resource_bytes" must be a whole number of bytes',
    ],
    ['a resource limit of 0', '[mcp_servers.x]\ncommand = "a"\nmax_resource_bytes = 0\n', 'must be 1 or more'],
  ])('refuses %s', async (_case, text, problem) => {
    writeFileSync(userFile, text);
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error.message).toContain('mcp_servers');
    expect(error.message).toContain(problem);
  });

  it('refuses servers in a project the user has not trusted', async () => {
    writeFileSync(projectFile, '[mcp_servers.evil]\ncommand = "curl"\n');
    const error = await rejectionOf(() => loadConfig({ cwd: project, userFile }));
    expect(error.key).toBe('mcp_servers');
    expect(error.message).toContain(`trusted_projects = [${JSON.stringify(project)}]`);
  });

  it('adds a trusted project’s servers to the user’s, the project’s winning by name', async () => {
    writeFileSync(
      userFile,
      `trusted_projects = [${JSON.stringify(project)}]\n[mcp_servers.a]\ncommand = "user-a"\n[mcp_servers.b]\ncommand = "user-b"\n`,
    );
    writeFileSync(
      projectFile,
      '[mcp_servers.b]\ncommand = "project-b"\n[mcp_servers.c]\nurl = "http://127.0.0.1:1/mcp"\n',
    );
    const config = await loadConfig({ cwd: project, userFile });
    const servers = toMcpServersConfig(config.mcp_servers ?? {}, {});
    expect(servers).toEqual({
      a: { command: 'user-a' },
      b: { command: 'project-b' },
      c: { url: 'http://127.0.0.1:1/mcp' },
    });
  });

  it('reads [mcp_servers.NAME.oauth]: the secret from its variable, the key file beside its file', async () => {
    writeFileSync(
      userFile,
      `[mcp_servers.tracker]
url = "https://mcp.tracker.example/mcp"
[mcp_servers.tracker.oauth]
client_id = "agentloop-at-acme"
client_secret_env_var = "TRACKER_SECRET"
scopes = ["issues:read"]
redirect_port = 8765
client_metadata_url = "https://agentloop.example/client.json"
[mcp_servers.robot]
url = "https://mcp.robot.example/mcp"
oauth = { grant = "client_credentials", client_id = "svc", private_key_file = "keys/robot.pem" }
`,
    );
    const config = await loadConfig({ cwd: project, userFile });
    expect(toMcpServersConfig(config.mcp_servers ?? {}, { TRACKER_SECRET: 'sh' })).toEqual({
      tracker: {
        url: 'https://mcp.tracker.example/mcp',
        oauth: {
          clientId: 'agentloop-at-acme',
          clientSecret: 'sh',
          scopes: ['issues:read'],
          redirectPort: 8765,
          clientMetadataUrl: 'https://agentloop.example/client.json',
        },
      },
      robot: {
        url: 'https://mcp.robot.example/mcp',
        oauth: {
          grant: 'client_credentials',
          clientId: 'svc',
          privateKeyFile: join(root, 'user', 'keys', 'robot.pem'),
        },
      },
    });
    const missing = (() => {
      try {
        toMcpServersConfig(config.mcp_servers ?? {}, {});
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    })();
    expect(missing).toContain('mcp_servers.tracker.oauth.client_secret_env_var');
    expect(missing).toContain('names the environment variable TRACKER_SECRET, which is not set');
  });

  it('passes an empty oauth table on, which marks the server as using OAuth', async () => {
    writeFileSync(userFile, '[mcp_servers.wiki]\nurl = "https://wiki.example.com/mcp"\noauth = {}\n');
    const config = await loadConfig({ cwd: project, userFile });
    expect(toMcpServersConfig(config.mcp_servers ?? {}, {})).toEqual({
      wiki: { url: 'https://wiki.example.com/mcp', oauth: {} },
    });
  });

  it('refuses an oauth table that cannot log in, or on a stdio server', async () => {
    writeFileSync(
      userFile,
      '[mcp_servers.robot]\nurl = "https://x.example/mcp"\noauth = { grant = "client_credentials" }\n',
    );
    expect((await rejectionOf(() => loadConfig({ cwd: project, userFile }))).message).toContain(
      'grant = "client_credentials" needs client_id',
    );
    writeFileSync(userFile, '[mcp_servers.local-ish]\ncommand = "x"\noauth = { client_id = "a" }\n');
    expect((await rejectionOf(() => loadConfig({ cwd: project, userFile }))).message).toContain(
      '"oauth" is for a server with "url"',
    );
  });

  it("gives a trusted project's table of a known name none of the user's oauth secrets", async () => {
    writeFileSync(
      userFile,
      `trusted_projects = [${JSON.stringify(project)}]
[mcp_servers.tracker]
url = "https://mcp.tracker.example/mcp"
oauth = { client_id = "mine", client_secret_env_var = "TRACKER_SECRET" }
`,
    );
    writeFileSync(projectFile, '[mcp_servers.tracker]\nurl = "https://evil.example/mcp"\n');
    const config = await loadConfig({ cwd: project, userFile });
    expect(toMcpServersConfig(config.mcp_servers ?? {}, { TRACKER_SECRET: 'sh' })).toEqual({
      tracker: { url: 'https://evil.example/mcp' },
    });
  });
});
