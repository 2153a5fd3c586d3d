import type { Agent } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { builtinSlashCommands } from '../slash/index.js';
import { sessionCompletionSources } from './session-completion-sources.js';

/** Just what the sources read of an agent: its skills and its tool registry (no MCP servers attached). */
function agentWithSkills(names: string[]): Agent {
  return { skills: names.map((name) => ({ name, description: `${name} skill` })), tools: {} } as unknown as Agent;
}

describe('sessionCompletionSources', () => {
  it('offers the commands by name and alias, as the session runs them', () => {
    const sources = sessionCompletionSources(new Promise(() => {}), builtinSlashCommands);
    expect(sources.commands).toContain('help');
    expect(sources.commands).toContain('?');
    expect(sources.commands).toContain('quit');
    expect(sources.commands).toContain('exit');
  });

  it('offers the agent’s skills, and no servers when it has none', async () => {
    const sources = sessionCompletionSources(Promise.resolve(agentWithSkills(['pdf', 'deploy'])), []);
    expect(await sources.skills()).toEqual(['pdf', 'deploy']);
    expect(await sources.servers()).toEqual([]);
  });

  it('rejects when the agent could not be made, for the completer to go on without it', async () => {
    const failed = Promise.reject(new Error('no key'));
    failed.catch(() => undefined);
    const sources = sessionCompletionSources(failed, []);
    await expect(sources.servers()).rejects.toThrow('no key');
  });
});
