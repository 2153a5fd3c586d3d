import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { MemoryOutput } from '../test-support/memory-output.js';
import { mcpList } from './mcp-list-command.js';

// The MCP package's fixture server: a real stdio MCP server built on the SDK.
const FIXTURE_SERVER = resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../../../mcp/src/test-support/stdio-fixture-server.mjs',
);

let root: string;
let userFile: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'agentloop-mcp-list-'));
  userFile = join(root, 'config.toml');
  mkdirSync(join(root, 'project'));
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

async function list(config: string) {
  writeFileSync(userFile, config);
  const output = new MemoryOutput();
  const errorOutput = new MemoryOutput();
  const status = await mcpList({
    cwd: join(root, 'project'),
    userConfigFile: userFile,
    output,
    errorOutput,
    style: createStyle(false),
  });
  return { status, text: output.text, errors: errorOutput.text };
}

describe('agentloop mcp list', () => {
  it('shows each server’s state and tools, and why one failed', async () => {
    const { status, text } = await list(
      `[mcp_servers.fixture]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(FIXTURE_SERVER)}]\n` +
        '[mcp_servers.missing]\ncommand = "agentloop-no-such-mcp-server"\n' +
        '[mcp_servers.off]\ncommand = "never-started"\nenabled = false\n',
    );
    expect(status).toBe(1);
    const lines = text.split('\n');
    expect(lines[0]).toBe('MCP servers (3)');
    expect(lines[1]).toMatch(/^ {2}fixture {2}ready {2}stdio, 8 tools, pid \d+$/);
    expect(lines[2]).toBe('    echo, fail, image, big, progress, hang, crash, add_tool');
    expect(lines[3]).toBe('  missing  failed  stdio, 0 tools');
    expect(lines[4]).toBe(
      '    MCP server "missing" failed to start: the command "agentloop-no-such-mcp-server" was not found; check "command" and the PATH.',
    );
    expect(lines[5]).toBe('  off  disabled');
  });

  it('says how to add a server when none is configured', async () => {
    const { status, text } = await list('');
    expect(status).toBe(0);
    expect(text).toContain('No MCP servers are configured. Add one as [mcp_servers.NAME]');
  });

  it('reports an invalid configuration with exit status 2', async () => {
    const { status, errors } = await list('[mcp_servers.x]\nurl = "ftp://x"\n');
    expect(status).toBe(2);
    expect(errors).toContain('mcp_servers.x.url');
  });
});
