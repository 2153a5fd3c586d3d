import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpStdioServerConfig } from '@agentloop/mcp';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The forecast MCP server (mcp-forecast-server.mjs) over stdio, and the arguments of the calls it ran. */
export function forecastMcpServer(): { config: McpStdioServerConfig; calls: () => unknown[]; remove: () => void } {
  const directory = mkdtempSync(path.join(tmpdir(), 'agentloop-providers-mcp-'));
  const logFile = path.join(directory, 'calls.jsonl');
  return {
    config: {
      command: process.execPath,
      args: [path.join(here, 'mcp-forecast-server.mjs')],
      env: { MCP_CALL_LOG: logFile },
    },
    calls: () => {
      try {
        return readFileSync(logFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as unknown);
      } catch {
        return [];
      }
    },
    remove: () => rmSync(directory, { recursive: true, force: true }),
  };
}

// Whether a process still runs, as every package's tests ask it (scripts/is-alive.mjs).
export { isAlive } from '../../../../scripts/is-alive.mjs';
