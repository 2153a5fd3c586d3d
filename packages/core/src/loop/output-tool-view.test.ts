import { defineTool, ToolRegistry } from '@agentloop/tools';
import { taskCompletionWithOutput } from '@agentloop/tools/internal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OutputToolView } from './output-tool-view.js';

const typed = taskCompletionWithOutput(z.object({ title: z.string() }));
const echo = defineTool({ name: 'echo', description: 'Echo', parameters: z.object({}), execute: () => 'echo' });

describe('OutputToolView', () => {
  it("replaces task_completion with the run's own in lookups, lists and definitions", () => {
    const registry = new ToolRegistry([echo]);
    const view = new OutputToolView(registry, typed);
    expect(view.get('task_completion')).toBe(typed);
    expect(view.get('echo')).toBe(registry.get('echo'));
    expect(view.list().map((entry) => entry.definition)).toEqual(view.definitions());
    expect(view.definitions()).toEqual([
      typed.definition,
      ...registry.definitions().filter((definition) => definition.name !== 'task_completion'),
    ]);
  });

  it('gives the same arrays until the registry changes, then follows it', () => {
    const registry = new ToolRegistry();
    const view = new OutputToolView(registry, typed);
    const definitions = view.definitions();
    const list = view.list();
    expect(view.definitions()).toBe(definitions);
    expect(view.list()).toBe(list);
    registry.register(echo);
    expect(view.definitions()).not.toBe(definitions);
    expect(view.definitions().map((definition) => definition.name)).toContain('echo');
    expect(view.get('echo')?.tool).toBe(echo);
  });
});
