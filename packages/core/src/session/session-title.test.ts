import { systemMessage, userMessage } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { withMentionedSkills } from '../skills/mentioned-skills.js';
import { sessionTitle } from './session-title.js';

describe('sessionTitle', () => {
  it('is the first input, on one line', () => {
    expect(
      sessionTitle([systemMessage('Be brief.'), userMessage('Fix the\n  failing   tests'), userMessage('later')]),
    ).toBe('Fix the failing tests');
  });

  it('leaves out the skills a $name added to the input', () => {
    const input = withMentionedSkills('Summarise report.pdf with $pdf', [
      { name: 'pdf', description: 'PDFs.', instructions: 'Use pdftotext.', directory: '/skills/pdf' },
    ]);
    expect(sessionTitle([userMessage(input)])).toBe('Summarise report.pdf with $pdf');
  });

  it('cuts a long input at 80 characters, with an ellipsis', () => {
    const title = sessionTitle([userMessage(`${'word '.repeat(40)}end`)]);

    expect(title).toHaveLength(80);
    expect(title?.endsWith('word…')).toBe(true);
  });

  it('never cuts a character in two', () => {
    const title = sessionTitle([userMessage('😀'.repeat(100))]);

    expect([...title!]).toHaveLength(80);
    expect(title?.endsWith('😀…')).toBe(true);
  });

  it('is undefined without an input that has text', () => {
    expect(sessionTitle([systemMessage('Be brief.')])).toBeUndefined();
    expect(sessionTitle([userMessage('   ')])).toBeUndefined();
  });
});
