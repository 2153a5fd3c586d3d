// End-to-end tests of `@server:uri` in `agentloop run`: the built command with the reference "everything"
// MCP server (over stdio) as `[mcp_servers.everything]`, against a scripted OpenAI-compatible server on
// 127.0.0.1. The task's mentions are attached as the interactive session attaches them.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AGENTLOOP_BIN, assertBuilt, CliWorkspace } from '../test-support/cli-fixture.js';
import type { ScriptEntry, ScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';
import { startScriptedOpenAIServer } from '../test-support/scripted-openai-server.mjs';

const requireFromMcp = createRequire(new URL('../../../mcp/package.json', import.meta.url));
const EVERYTHING = requireFromMcp.resolve('@modelcontextprotocol/server-everything/dist/index.js');

let workspace: CliWorkspace | undefined;
let server: ScriptedOpenAIServer | undefined;

/** `agentloop run` with the everything server configured (and `extraConfig` in its table), to its end. */
async function run(args: string[], script: ScriptEntry[] = [], extraConfig = '') {
  workspace = new CliWorkspace();
  const directory = join(workspace.configHome, 'agentloop');
  mkdirSync(directory, { recursive: true });
  // Appended: the workspace may have written the sandbox's setting there.
  appendFileSync(
    join(directory, 'config.toml'),
    `[mcp_servers.everything]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n${extraConfig}`,
  );
  server = await startScriptedOpenAIServer(script);
  const child = spawn(
    process.execPath,
    [AGENTLOOP_BIN, 'run', '--base-url', server.url, '--model', 'test-model', ...args],
    { cwd: workspace.project, env: workspace.environment(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, stdout, stderr, requests: server.requests };
}

describe('@server:uri in agentloop run', () => {
  beforeAll(() => assertBuilt());

  afterEach(async () => {
    await server?.close();
    workspace?.remove();
    server = undefined;
    workspace = undefined;
  });

  it('attaches the mentioned resource to the task, and says so on stderr', async () => {
    const result = await run(
      ['Summarise @everything:demo://resource/dynamic/text/4.'],
      [{ toolCalls: [{ name: 'task_completion', arguments: { result: 'It is resource 4.' } }] }],
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('It is resource 4.\n');
    expect(result.stderr).toContain('↳ attached @everything:demo://resource/dynamic/text/4\n');
    expect(result.requests[0].messages.at(-1).content).toMatch(
      /^Summarise @everything:demo:\/\/resource\/dynamic\/text\/4\.\n\nAttached resources:\n<resource server="everything" uri="demo:\/\/resource\/dynamic\/text\/4">\nResource 4: This is a plaintext resource created at .*\n<\/resource>$/,
    );
  }, 30_000);

  it('cuts a resource at max_resource_bytes, saying so on stderr and to the model', async () => {
    const result = await run(
      ['Summarise @everything:demo://resource/static/document/architecture.md'],
      [{ toolCalls: [{ name: 'task_completion', arguments: { result: 'Read the start.' } }] }],
      'max_resource_bytes = 100\n',
    );
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(
      /↳ attached @everything:demo:\/\/resource\/static\/document\/architecture\.md \(cut at 100 bytes of [\d.]+ KB: the model can read the rest with read_resource; max_resource_bytes in \[mcp_servers\.everything\] raises the limit\)\n/,
    );
    expect(result.requests[0].messages.at(-1).content).toMatch(
      /\[lines 1-\d+ of the resource's [\d.]+ KB in \d+ lines, cut at 100 bytes; read on with start_line \d+\.\]\n<\/resource>$/,
    );
  }, 30_000);

  it('exits with 2 after one line when the resource cannot be read, sending nothing to the model', async () => {
    const result = await run(['Read @everything:demo://nowhere']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^✗ @everything:demo:\/\/nowhere could not be attached: MCP server "everything" could not give resource <demo:\/\/nowhere>:[^\n]*\n$/,
    );
    expect(result.stdout).toBe('');
    expect(result.requests).toHaveLength(0);
  }, 30_000);

  it('exits with 2 naming the servers there are when the mention names another, with a JSON line under --json', async () => {
    const result = await run(['--json', 'Read @docs:file:///a.md']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      '✗ @docs:file:///a.md could not be attached: no MCP server is named "docs"; the servers are everything.\n',
    );
    expect(JSON.parse(result.stdout)).toMatchObject({
      type: 'startup-error',
      error: { code: 'resource_not_attached' },
    });
    expect(result.requests).toHaveLength(0);
  }, 30_000);
});
