import { describe, expect, it } from 'vitest';
import { developerInstructionsSection } from './developer-instructions-section.js';

const context = { tools: [], protocol: 'native' } as const;

describe('developerInstructionsSection', () => {
  it('renders the instructions under a heading', () => {
    expect(developerInstructionsSection('  Prefer small diffs.\n').render(context)).toBe(
      '# Developer instructions\nPrefer small diffs.',
    );
  });

  it('renders nothing for empty instructions', () => {
    expect(developerInstructionsSection(' \n').render(context)).toBeUndefined();
  });
});
