import type { ToolDefinition } from '@agentloop/spec';
import { describe, expect, it, vi } from 'vitest';
import { defaultPromptSections, PromptBuilder } from './prompt-builder.js';
import type { PromptContext, PromptSection } from './prompt-context.js';

const tools: readonly ToolDefinition[] = [
  { name: 'task_completion', description: 'Finish', inputSchema: { type: 'object', properties: {} } },
  { name: 'web_search', description: 'Search the web', inputSchema: { type: 'object', properties: {} } },
];

const native: PromptContext = { tools, protocol: 'native', provider: 'anthropic', model: 'claude-sonnet-4-5' };
const xml: PromptContext = { ...native, protocol: 'xml' };

const headings = (prompt: string) => prompt.split('\n').filter((line) => line.startsWith('# '));

/** A section whose render is a spy, to count how often the builder renders. */
const countingSection = (id = 'counter', text = `section ${id}`) => {
  const render = vi.fn(() => text);
  return { section: { id, render } satisfies PromptSection, render };
};

describe('PromptBuilder', () => {
  describe('the default sections', () => {
    it('are capabilities, the user system prompt, loop guidance, the XML sections and chain of thought, in that order', () => {
      expect(defaultPromptSections('Be brief.').map((section) => section.id)).toEqual([
        'system-capabilities',
        'model-instructions',
        'user-system-prompt',
        'agent-loop-guidance',
        'xml-tool-format',
        'xml-tools',
        'chain-of-thought',
      ]);
    });

    it('render in that order, with the user system prompt between capabilities and loop guidance', () => {
      const prompt = new PromptBuilder({ systemPrompt: 'You are a helpful coding assistant.' }).build(native);
      const positions = ['# How you work', 'You are a helpful coding assistant.', '# The agent loop', '# Thinking'].map(
        (marker) => prompt.indexOf(marker),
      );

      expect(positions.every((position) => position >= 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    });

    it('separate sections by one blank line, with no leading or trailing whitespace', () => {
      const prompt = new PromptBuilder({ systemPrompt: '\n  Be brief.  \n' }).build(native);

      expect(prompt).toContain('their results come back in the next message.\n\nBe brief.\n\n# The agent loop');
      expect(prompt).toBe(prompt.trim());
      expect(prompt).not.toMatch(/\n{3,}/);
    });

    it('name all three loop-control tools in the loop guidance', () => {
      const prompt = new PromptBuilder().build(native);
      const guidance = prompt.slice(prompt.indexOf('# The agent loop'), prompt.indexOf('# Thinking'));

      expect(guidance).toContain('`task_completion`');
      expect(guidance).toContain('`ask_question`');
      expect(guidance).toContain('`converse`');
    });

    it('leave out the user system prompt section when there is none', () => {
      expect(headings(new PromptBuilder().build(native))).toEqual(['# How you work', '# The agent loop', '# Thinking']);
      expect(new PromptBuilder().build(native)).toContain('in the next message.\n\n# The agent loop');
    });

    it('leave out a whitespace-only user system prompt', () => {
      expect(new PromptBuilder({ systemPrompt: '  \n ' }).build(native)).toBe(new PromptBuilder().build(native));
    });

    it("put the model's instructions after the base instructions and before the app's, and rebuild when they change", () => {
      const builder = new PromptBuilder({ systemPrompt: 'Be brief.' });
      const prompt = builder.build({ ...native, modelInstructions: 'Change files with apply_patch.' });
      expect(prompt).toContain(
        'in the next message.\n\nChange files with apply_patch.\n\nBe brief.\n\n# The agent loop',
      );
      expect(builder.build({ ...native, modelInstructions: 'Other.' })).toContain('\n\nOther.\n\nBe brief.');
      expect(builder.build(native)).not.toContain('Other.');
    });

    it('name the model when the context has one', () => {
      expect(new PromptBuilder().build(native)).toContain('You are an autonomous agent running as claude-sonnet-4-5.');
      expect(new PromptBuilder().build({ tools, protocol: 'native' })).not.toContain('running as');
    });

    it('ask for <thinking> tags in the xml protocol', () => {
      expect(new PromptBuilder().build(xml)).toContain(
        'Before each tool call, reason briefly inside <thinking></thinking> tags',
      );
    });

    it('do not mention <thinking> tags in the native protocol', () => {
      expect(new PromptBuilder().build(native)).not.toContain('<thinking>');
    });
  });

  describe('sections option', () => {
    it('replaces the default sections entirely', () => {
      const builder = new PromptBuilder({
        systemPrompt: 'ignored',
        sections: [
          { id: 'a', render: () => 'Alpha' },
          { id: 'b', render: ({ protocol }) => `Protocol: ${protocol}` },
        ],
      });

      expect(builder.build(native)).toBe('Alpha\n\nProtocol: native');
    });

    it('leaves out sections that render undefined, an empty string or whitespace', () => {
      const builder = new PromptBuilder({
        sections: [
          { id: 'a', render: () => 'Alpha' },
          { id: 'none', render: () => undefined },
          { id: 'empty', render: () => '' },
          { id: 'blank', render: () => ' \n ' },
          { id: 'b', render: () => 'Beta' },
        ],
      });

      expect(builder.build(native)).toBe('Alpha\n\nBeta');
    });
  });

  describe('use', () => {
    it('adds a section at the end when no anchor is given', () => {
      const builder = new PromptBuilder().use({ id: 'house-rules', render: () => '# House rules\nNo force pushes.' });

      expect(builder.sections.map((section) => section.id).at(-1)).toBe('house-rules');
      expect(builder.build(native).endsWith('# House rules\nNo force pushes.')).toBe(true);
    });

    it('inserts a section after the anchor', () => {
      const builder = new PromptBuilder().use(
        { id: 'house-rules', render: () => 'rules' },
        { after: 'user-system-prompt' },
      );

      expect(builder.sections.map((section) => section.id)).toEqual([
        'system-capabilities',
        'model-instructions',
        'user-system-prompt',
        'house-rules',
        'agent-loop-guidance',
        'xml-tool-format',
        'xml-tools',
        'chain-of-thought',
      ]);
    });

    it('adds a section at the end when the anchor does not exist', () => {
      const builder = new PromptBuilder().use(
        { id: 'house-rules', render: () => 'rules' },
        { after: 'no-such-section' },
      );

      expect(builder.sections.map((section) => section.id).at(-1)).toBe('house-rules');
    });

    it('replaces a section with the same id in place', () => {
      const builder = new PromptBuilder().use({
        id: 'chain-of-thought',
        render: () => '# Thinking\nThink step by step.',
      });

      expect(builder.sections.map((section) => section.id)).toEqual(
        defaultPromptSections().map((section) => section.id),
      );
      expect(builder.build(native).endsWith('# Thinking\nThink step by step.')).toBe(true);
    });

    it('returns the builder, so calls can be chained', () => {
      const builder = new PromptBuilder();

      expect(builder.use({ id: 'x', render: () => 'x' })).toBe(builder);
    });
  });

  describe('remove', () => {
    it('removes the section with the id and returns true', () => {
      const builder = new PromptBuilder();

      expect(builder.remove('chain-of-thought')).toBe(true);
      expect(headings(builder.build(native))).toEqual(['# How you work', '# The agent loop']);
    });

    it('returns false when there is no section with the id', () => {
      const builder = new PromptBuilder();

      expect(builder.remove('no-such-section')).toBe(false);
      expect(builder.sections).toHaveLength(7);
    });
  });

  describe('caching', () => {
    it('renders once for repeated builds with the same tools array, protocol, provider and model', () => {
      const { section, render } = countingSection();
      const builder = new PromptBuilder({ sections: [section] });

      const first = builder.build(native);
      const second = builder.build({ ...native });

      expect(second).toBe(first);
      expect(render).toHaveBeenCalledTimes(1);
    });

    it('renders again for a different tools array, even with the same tools in it', () => {
      const { section, render } = countingSection();
      const builder = new PromptBuilder({ sections: [section] });

      builder.build(native);
      builder.build({ ...native, tools: [...tools] });

      expect(render).toHaveBeenCalledTimes(2);
    });

    it.each([
      ['protocol', { protocol: 'xml' }],
      ['provider', { provider: 'openai' }],
      ['model', { model: 'claude-opus-4-1' }],
    ] as const)('renders again for a different %s', (_field, change) => {
      const { section, render } = countingSection();
      const builder = new PromptBuilder({ sections: [section] });

      builder.build(native);
      builder.build({ ...native, ...change });

      expect(render).toHaveBeenCalledTimes(2);
    });

    it('renders again after use() and includes the new section', () => {
      const { section, render } = countingSection('base');
      const builder = new PromptBuilder({ sections: [section] });
      builder.build(native);

      builder.use({ id: 'extra', render: () => 'extra' });

      expect(builder.build(native)).toBe('section base\n\nextra');
      expect(render).toHaveBeenCalledTimes(2);
    });

    it('renders again after remove() and leaves the section out', () => {
      const { section, render } = countingSection('base');
      const builder = new PromptBuilder({ sections: [section, { id: 'extra', render: () => 'extra' }] });
      builder.build(native);

      builder.remove('extra');

      expect(builder.build(native)).toBe('section base');
      expect(render).toHaveBeenCalledTimes(2);
    });

    it('passes the context to every section', () => {
      const { section, render } = countingSection();
      new PromptBuilder({ sections: [section] }).build(xml);

      expect(render).toHaveBeenCalledWith(xml);
    });
  });

  // The native prompt is sent with every call, beside the tools' own descriptions: it says each rule once.
  it('renders the native-mode prompt with each loop rule once, and no tool descriptions', () => {
    const prompt = new PromptBuilder({ systemPrompt: 'You are a helpful coding assistant.' }).build(native);
    const once = (text: string) => prompt.split(text).length - 1;

    expect(headings(prompt)).toEqual(['# How you work', '# The agent loop', '# Thinking']);
    expect(once('Every response must call a tool')).toBe(1);
    expect(once('ends nothing')).toBe(1);
    for (const name of ['`task_completion`', '`ask_question`', '`converse`']) expect(once(name)).toBe(1);
    expect(once('without naming tools')).toBe(1);
    expect(prompt).not.toContain('Search the web');
    // The whole fixed part a native request carries besides the tools; bench/request-size.bench.mjs measures it.
    expect(prompt.length).toBeLessThan(700);
  });
});

describe('PromptBuilder prompts shared between builders', () => {
  const builderSaying = (text: string) => new PromptBuilder({ sections: [{ id: 'only', render: () => text }] });

  it('gives each builder its own text, however many prompts were built since', () => {
    const texts = Array.from({ length: 80 }, (_, index) => `Prompt number ${index}.`);
    expect(texts.map((text) => builderSaying(text).build(native))).toStrictEqual(texts);
    expect(builderSaying('Prompt number 3.').build(native)).toBe('Prompt number 3.');
    expect(builderSaying(texts[79] as string).build(xml)).toBe('Prompt number 79.');
  });

  it('builds the same default prompt for two agents', () => {
    expect(new PromptBuilder().build(native)).toBe(new PromptBuilder().build(native));
  });
});
