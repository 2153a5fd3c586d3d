import { describe, expect, it } from 'vitest';
import type { PromptContext } from '../prompt-context.js';
import { baseInstructionsSection } from './base-instructions-section.js';

const context: PromptContext = {
  tools: [{ name: 'search', description: '', inputSchema: { type: 'object' } }],
  protocol: 'native',
  model: 'm1',
  provider: 'p1',
};

describe('baseInstructionsSection', () => {
  it('has the id of the default section it replaces', () => {
    expect(baseInstructionsSection().id).toBe('system-capabilities');
  });

  it('renders the default "How you work" template without an override', () => {
    expect(baseInstructionsSection().render(context)).toContain('# How you work');
  });

  it('renders baseInstructions instead, with template variables substituted', () => {
    expect(
      baseInstructionsSection({ baseInstructions: 'You are {{model}} on {{provider}} with {{tools}}.' }).render(
        context,
      ),
    ).toBe('You are m1 on p1 with search.');
  });

  it('prefers the project system_prompt.md over baseInstructions', () => {
    const section = baseInstructionsSection({ projectSystemPrompt: 'Project: {{model}}', baseInstructions: 'App' });

    expect(section.render(context)).toBe('Project: m1');
  });

  it('renders nothing for an empty override', () => {
    expect(baseInstructionsSection({ baseInstructions: '' }).render(context)).toBe('');
  });
});
