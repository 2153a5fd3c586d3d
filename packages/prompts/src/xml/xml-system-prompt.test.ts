// The whole XML-mode system prompt for a small tool set, as a model sees it. The snapshot file is the
// review copy: read it after `vitest -u` whenever a template changes.
import { defineTool, ToolRegistry } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PromptBuilder } from '../prompt-builder.js';

const registry = new ToolRegistry([
  defineTool({
    name: 'search',
    description: 'Search the project for text.',
    parameters: z.object({
      query: z.string().describe('The text to find, e.g. TODO.'),
      limit: z.number().int().optional().default(5).describe('How many matches to return at most.'),
    }),
    execute: () => '',
  }),
  defineTool({
    name: 'read_file',
    description: 'Read a file from the workspace.',
    parameters: z.object({
      path: z.string().describe('The path, relative to the workspace.'),
      encoding: z.enum(['utf8', 'base64']).optional().describe('How to decode the file.'),
    }),
    execute: () => '',
  }),
]);

describe('the XML-mode system prompt', () => {
  it('holds the app prompt, the loop guidance, the call format and every tool', async () => {
    const prompt = new PromptBuilder({ systemPrompt: 'You are a helpful coding assistant.' }).build({
      tools: registry.definitions(),
      protocol: 'xml',
      provider: 'ollama',
      model: 'qwen3:8b',
    });

    await expect(prompt).toMatchFileSnapshot('./__snapshots__/xml-system-prompt.md');
  });

  // Every call carries this prompt: each rule is said once, and each tool's "when" is in its description only.
  it('says each protocol rule once', () => {
    const prompt = new PromptBuilder().build({ tools: registry.definitions(), protocol: 'xml' });
    const count = (text: string) => prompt.split(text).length - 1;

    expect(count('Every response must call a tool')).toBe(1);
    expect(count('One tool block per response')).toBe(1);
    expect(count('reason briefly inside <thinking></thinking> tags')).toBe(1);
    expect(count('without naming tools')).toBe(1);
    expect(count('when there is no task to carry out')).toBe(1);
    expect(count('information only the user has')).toBe(1);
  });

  it('lists the loop-control tools first, then the others by name (the registry order)', () => {
    const prompt = new PromptBuilder().build({ tools: registry.definitions(), protocol: 'xml' });
    const order = [...prompt.matchAll(/^## (\w+)$/gm)].map((match) => match[1]);

    expect(order).toEqual(['task_completion', 'ask_question', 'converse', 'read_file', 'search']);
  });

  it('is byte-identical when built again by another builder', () => {
    const context = { tools: registry.definitions(), protocol: 'xml' } as const;

    expect(new PromptBuilder().build(context)).toBe(
      new PromptBuilder().build({ ...context, tools: [...registry.definitions()] }),
    );
  });

  it('leaves the format and the tools out in native mode', () => {
    const prompt = new PromptBuilder().build({ tools: registry.definitions(), protocol: 'native' });

    expect(prompt).not.toContain('<tool>');
    expect(prompt).not.toContain('# Calling tools');
    expect(prompt).not.toContain('# Tools');
  });
});
