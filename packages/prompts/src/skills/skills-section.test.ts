import { describe, expect, it } from 'vitest';
import { PromptBuilder } from '../prompt-builder.js';
import { skillsSection } from './skills-section.js';

const context = { tools: [], protocol: 'native' } as const;

describe('skillsSection', () => {
  it('lists each skill by name and its description on one line', () => {
    const section = skillsSection([
      { name: 'pdf', description: 'Extract text from PDF files.\n  Use for any .pdf.' },
      { name: 'release-notes', description: 'Write release notes.' },
    ]);
    const text = section.render(context) ?? '';
    expect(text.split('\n')[0]).toBe('# Skills');
    expect(text).toContain('`load_skill`');
    expect(text.split('\n').slice(-2)).toEqual([
      '- pdf: Extract text from PDF files. Use for any .pdf.',
      '- release-notes: Write release notes.',
    ]);
  });

  it('renders nothing without skills', () => {
    expect(skillsSection([]).render(context)).toBeUndefined();
  });

  it('sits after the project instructions and before the loop guidance in the default prompt', () => {
    const builder = new PromptBuilder({ systemPrompt: 'App.', skills: [{ name: 'pdf', description: 'PDFs.' }] });
    const ids = builder.sections.map((section) => section.id);
    expect(ids.indexOf('skills')).toBe(ids.indexOf('agent-loop-guidance') - 1);
    expect(builder.build(context)).toContain('- pdf: PDFs.');
  });

  it('gives a byte-identical prompt on every build, in both protocols', () => {
    const skills = [{ name: 'pdf', description: 'PDFs.' }];
    for (const protocol of ['native', 'xml'] as const) {
      const first = new PromptBuilder({ skills }).build({ tools: [], protocol });
      const again = new PromptBuilder({ skills }).build({ tools: [], protocol, model: undefined });
      expect(again).toBe(first);
      expect(first).toContain('# Skills');
    }
  });
});
