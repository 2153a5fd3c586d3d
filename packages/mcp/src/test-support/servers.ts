import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpStdioServerConfig } from '../config/index.js';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));

/** The reference "everything" server from npm, started with node directly (no npx, no network). */
export function everythingServer(): McpStdioServerConfig {
  return {
    command: process.execPath,
    args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  };
}

/** The reference filesystem server from npm, allowed into `directory`. */
export function filesystemServer(directory: string): McpStdioServerConfig {
  return {
    command: process.execPath,
    args: [require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'), directory],
  };
}

/** The prompt and resource fixture server (content-fixture-server.mjs). */
export function contentFixtureServer(): McpStdioServerConfig {
  return { command: process.execPath, args: [path.join(here, 'content-fixture-server.mjs')] };
}

/** A server with one prompt and no tools or resources (prompt-only-server.mjs). */
export function promptOnlyServer(): McpStdioServerConfig {
  return { command: process.execPath, args: [path.join(here, 'prompt-only-server.mjs')] };
}

/** The fixture server (stdio-fixture-server.mjs), noting what it saw in `logFile` when given. */
export function fixtureServer(
  options: { logFile?: string; failStart?: boolean; startWhen?: string } = {},
): McpStdioServerConfig {
  const env: Record<string, string> = {};
  if (options.logFile) env.FIXTURE_LOG = options.logFile;
  if (options.failStart) env.FIXTURE_FAIL_START = '1';
  if (options.startWhen) env.FIXTURE_START_WHEN = options.startWhen;
  return { command: process.execPath, args: [path.join(here, 'stdio-fixture-server.mjs')], env };
}

/** A temporary directory, removed by the returned function. */
export function tempDirectory(): { directory: string; remove: () => void } {
  const directory = mkdtempSync(path.join(tmpdir(), 'agentloop-mcp-'));
  return { directory, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/** The lines of a fixture log file so far. */
export function readLog(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

// Whether a process still runs, as every package's tests ask it (scripts/is-alive.mjs).
export { isAlive } from '../../../../scripts/is-alive.mjs';

/** Waits (polling, bounded) until `condition` holds; throws after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waitFor: condition still false after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
