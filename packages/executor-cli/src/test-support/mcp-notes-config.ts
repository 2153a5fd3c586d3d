import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliWorkspace } from './cli-fixture.js';

const NOTES_SERVER = fileURLToPath(new URL('./mcp-notes-server.mjs', import.meta.url));

/**
 * Configures the notes MCP server (mcp-notes-server.mjs, over stdio) as `[mcp_servers.notes]` in the
 * workspace's user configuration, and returns where its processes note their pids.
 */
export function configureNotesMcpServer(workspace: CliWorkspace): { pidFile: string } {
  const pidFile = join(workspace.root, 'mcp-pids.txt');
  workspace.appendUserConfig(
    `
[mcp_servers.notes]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(NOTES_SERVER)}]
env = { MCP_PID_FILE = ${JSON.stringify(pidFile)} }
`,
  );
  return { pidFile };
}

/** The pids of the MCP server processes started so far. */
export function startedPids(pidFile: string): number[] {
  return existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

// Whether a process still runs, as every package's tests ask it (scripts/is-alive.mjs).
export { isAlive } from '../../../../scripts/is-alive.mjs';
