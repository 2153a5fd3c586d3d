import { describe, expect, it } from 'vitest';
import { formatUserInstructions, userInstructionsSection } from './user-instructions-section.js';

const context = { tools: [], protocol: 'native' } as const;

describe('formatUserInstructions', () => {
  it('wraps the text as AGENTS.md instructions for the directory', () => {
    expect(formatUserInstructions({ directory: '/repo', text: '\nUse pnpm.\n' })).toBe(
      '# AGENTS.md instructions for /repo\n<INSTRUCTIONS>\nUse pnpm.\n</INSTRUCTIONS>',
    );
  });

  it('keeps the text as written, code samples with < and & included', () => {
    expect(formatUserInstructions({ directory: '/r', text: 'Run `a && b < c`.' })).toContain('\nRun `a && b < c`.\n');
  });
});

describe('userInstructionsSection', () => {
  it('renders the wrapped instructions', () => {
    expect(userInstructionsSection({ directory: '/repo', text: 'Use pnpm.' }).render(context)).toContain(
      '<INSTRUCTIONS>\nUse pnpm.\n</INSTRUCTIONS>',
    );
  });

  it('renders nothing for empty text', () => {
    expect(userInstructionsSection({ directory: '/repo', text: '' }).render(context)).toBeUndefined();
  });
});
