import { describe, expect, it } from 'vitest';
import { mentionedSkills, withMentionedSkills, withoutMentionedSkills } from './mentioned-skills.js';
import type { Skill } from './skill.js';

const pdf: Skill = { name: 'pdf', description: 'PDFs.', instructions: 'Use pdftotext.' };
const notes: Skill = { name: 'release-notes', description: 'Notes.', instructions: 'Read the changelog.' };

describe('mentionedSkills', () => {
  it('finds the known skills named as $name, once each, in order', () => {
    expect(mentionedSkills('Use $release-notes, then $pdf. And $pdf again.', [pdf, notes])).toEqual([notes, pdf]);
  });

  it('leaves $PATH, unknown names, longer words and $ inside a word alone', () => {
    expect(mentionedSkills('echo $PATH $HOME $pdfs a$pdf $$pdf $unknown', [pdf, notes])).toEqual([]);
  });
});

describe('withMentionedSkills', () => {
  it('adds the named skill’s instructions after the user’s text', () => {
    expect(withMentionedSkills('Read it with $pdf', [pdf])).toBe(
      'Read it with $pdf\n\n<skill name="pdf">\nUse pdftotext.\n</skill>',
    );
  });

  it('returns input that names no skill as it is', () => {
    expect(withMentionedSkills('echo $PATH', [pdf])).toBe('echo $PATH');
  });
});

describe('withoutMentionedSkills', () => {
  it('gives back the user’s own text of an input with skills added', () => {
    expect(withoutMentionedSkills(withMentionedSkills('Read it with $pdf and $release-notes', [pdf, notes]))).toBe(
      'Read it with $pdf and $release-notes',
    );
    expect(withoutMentionedSkills('echo $PATH')).toBe('echo $PATH');
  });
});
