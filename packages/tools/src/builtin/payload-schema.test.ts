import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toJsonSchema } from '../schema/to-json-schema.js';
import { createArgumentValidator } from '../schema/validate-arguments.js';
import { optionalTextList, payloadSchema, requiredText } from './payload-schema.js';

interface Question {
  question: string;
  suggestions?: string[];
}

const question = payloadSchema<Question>({
  question: requiredText('The question for the user.'),
  suggestions: optionalTextList('Up to four suggested answers.', { maxItems: 4 }),
});

describe('payloadSchema', () => {
  it('gives the JSON Schema zod gave for the same fields, byte for byte (the request prefix stays the same)', () => {
    const zodQuestion = z.object({
      question: z.string().trim().min(1).describe('The question for the user.'),
      suggestions: z.array(z.string()).max(4).optional().describe('Up to four suggested answers.'),
    });

    expect(JSON.stringify(toJsonSchema(question, 'ask_question'))).toBe(
      JSON.stringify(toJsonSchema(zodQuestion, 'ask_question')),
    );
  });

  it('gives each caller its own copy of the JSON Schema', () => {
    const first = toJsonSchema(question, 'ask_question');
    (first.required as string[]).push('suggestions');

    expect(toJsonSchema(question, 'ask_question').required).toEqual(['question']);
  });

  it('trims text, keeps lists and drops fields it does not know', () => {
    expect(question.check({ question: ' Which? ', suggestions: ['a'], extra: 1 })).toStrictEqual({
      value: { question: 'Which?', suggestions: ['a'] },
    });
  });

  it('counts a field given as undefined as left out', () => {
    expect(question.check({ question: 'Which?', suggestions: undefined })).toStrictEqual({
      value: { question: 'Which?' },
    });
  });

  it('names every wrong field and what is wrong with it', () => {
    expect(question.check({ question: 7, suggestions: ['a', 2] })).toStrictEqual({
      issues: [
        { message: 'expected text, got number', path: ['question'] },
        { message: 'expected a list of texts, got number at 1', path: ['suggestions'] },
      ],
    });
    expect(question.check({ suggestions: 'a' })).toStrictEqual({
      issues: [
        { message: 'required', path: ['question'] },
        { message: 'expected a list of texts, got string', path: ['suggestions'] },
      ],
    });
  });

  it('rejects a list longer than its limit, and arguments that are not an object', () => {
    expect(question.check({ question: 'Which?', suggestions: ['a', 'b', 'c', 'd', 'e'] })).toStrictEqual({
      issues: [{ message: 'expected at most 4 items, got 5', path: ['suggestions'] }],
    });
    expect(question.check(['Which?'])).toStrictEqual({ issues: [{ message: 'expected a JSON object, got a list' }] });
  });

  it('validates synchronously through the Standard Schema interface, as a tool call is validated', () => {
    const validate = createArgumentValidator(question, toJsonSchema(question, 'ask_question'));

    expect(validate({ question: '  ' })).toStrictEqual({ ok: false, message: 'question: must not be empty' });
  });
});
