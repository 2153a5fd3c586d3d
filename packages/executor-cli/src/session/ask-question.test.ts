import { describe, expect, it } from 'vitest';
import { answerFromLine } from './ask-question.js';

describe('answerFromLine', () => {
  it('picks a suggestion by its number', () => {
    expect(answerFromLine(' 2 ', ['red', 'blue'])).toBe('blue');
  });

  it('keeps a number that picks no suggestion as typed', () => {
    expect(answerFromLine('3', ['red', 'blue'])).toBe('3');
  });

  it('keeps free text as typed', () => {
    expect(answerFromLine('green, please', ['red', 'blue'])).toBe('green, please');
  });
});
