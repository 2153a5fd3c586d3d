import { describe, expect, it } from 'vitest';
import type { Tool } from '../tool.js';
import { ToolRegistry } from '../tool-registry.js';
import { resolveServerTool } from './resolve-server-tool.js';

const tool = (name: string, server?: Tool['server']): Tool => ({
  name,
  description: name,
  parameters: { type: 'object', properties: {} },
  execute: () => name,
  ...(server ? { server } : {}),
});

const registry = new ToolRegistry([
  tool('echo'),
  tool('github__echo', { name: 'github', toolName: 'echo' }),
  tool('github__create_issue', { name: 'github', toolName: 'create_issue' }),
  tool('docs__search', { name: 'docs', toolName: 'search' }),
]);
const resolve = (server: string, name: string) => resolveServerTool(registry.list(), server, name);

describe('resolveServerTool', () => {
  it('routes "local" to the agent’s own tool, never to a server’s tool of the same name', () => {
    expect(resolve('local', 'echo')).toEqual({ ok: true, toolName: 'echo' });
    expect(resolve('local', 'task_completion')).toEqual({ ok: true, toolName: 'task_completion' });
  });

  it('routes a server’s name to that server’s tool, by its native name', () => {
    expect(resolve('github', 'echo')).toEqual({ ok: true, toolName: 'github__echo' });
    expect(resolve('docs', 'search')).toEqual({ ok: true, toolName: 'docs__search' });
  });

  it('refuses an unknown server, listing the servers', () => {
    expect(resolve('gitlab', 'echo')).toEqual({
      ok: false,
      message: 'There is no server "gitlab". The servers are "local", "docs", "github" ("local" is your own tools).',
    });
  });

  it('refuses a tool its server lacks, listing the server’s tools', () => {
    expect(resolve('docs', 'echo')).toEqual({
      ok: false,
      message: 'Server "docs" has no tool "echo". Its tools are "search".',
    });
  });

  it('points a "local" call of a server’s tool at its server', () => {
    expect(resolve('local', 'search')).toEqual({
      ok: false,
      message:
        '"search" is not one of your own ("local") tools; it is a tool of server "docs". Call it with "server_name": "docs".',
    });
  });

  it('passes an unknown local name on, for the run to answer as an unknown tool', () => {
    expect(resolve('local', 'nothing')).toEqual({ ok: true, toolName: 'nothing' });
  });
});
