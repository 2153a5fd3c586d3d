import { describe, expect, it } from 'vitest';
import { checkChoices, type FormField, formFields, readFieldInput } from './elicitation-form.js';

// The form of the reference "everything" server's trigger-elicitation-request tool, trimmed.
const SCHEMA = {
  type: 'object',
  properties: {
    name: { title: 'String', type: 'string', description: 'Your full, legal name' },
    check: { title: 'Boolean', type: 'boolean' },
    firstLine: { type: 'string', default: 'It was a dark and stormy night.' },
    email: { title: 'Email', type: 'string', format: 'email' },
    integer: { title: 'Integer', type: 'integer', minimum: 1, maximum: 100, default: 42 },
    number: { title: 'Number', type: 'number', minimum: 0, maximum: 1000 },
    friend: { type: 'string', enum: ['Monica', 'Rachel'], default: 'Monica' },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Wonder Woman' },
      ],
    },
    pet: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'] },
    fish: {
      type: 'array',
      title: 'Fish',
      minItems: 1,
      maxItems: 2,
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
          { const: 'fish-3', title: 'Trout' },
        ],
      },
      default: ['fish-1'],
    },
    nested: { type: 'object', properties: {} },
  },
  required: ['name', 'integer'],
};

const field = (name: string) => formFields(SCHEMA).fields.find((candidate) => candidate.name === name) as FormField;

describe('formFields', () => {
  it('reads each property as a field of its kind, with its label, default and limits', () => {
    const { fields, skipped } = formFields(SCHEMA);
    expect(fields.map((each) => [each.name, each.kind, each.required])).toEqual([
      ['name', 'text', true],
      ['check', 'boolean', false],
      ['firstLine', 'text', false],
      ['email', 'text', false],
      ['integer', 'number', true],
      ['number', 'number', false],
      ['friend', 'choice', false],
      ['hero', 'choice', false],
      ['pet', 'choice', false],
      ['fish', 'choices', false],
    ]);
    expect(skipped).toEqual(['nested']);
    expect(field('name')).toMatchObject({ label: 'String', description: 'Your full, legal name' });
    expect(field('firstLine')).toMatchObject({ label: 'firstLine', default: 'It was a dark and stormy night.' });
    expect(field('integer')).toMatchObject({ integer: true, minimum: 1, maximum: 100, default: 42 });
    expect(field('friend')).toMatchObject({
      default: 'Monica',
      options: [
        { value: 'Monica', label: 'Monica' },
        { value: 'Rachel', label: 'Rachel' },
      ],
    });
    expect(field('hero')).toMatchObject({
      options: [
        { value: 'hero-1', label: 'Superman' },
        { value: 'hero-2', label: 'Wonder Woman' },
      ],
    });
    expect(field('pet')).toMatchObject({
      options: [
        { value: 'pet-1', label: 'Cats' },
        { value: 'pet-2', label: 'Dogs' },
      ],
    });
    expect(field('fish')).toMatchObject({ minItems: 1, maxItems: 2, default: ['fish-1'] });
  });
});

describe('readFieldInput', () => {
  it('takes the default for a field left empty, and leaves an optional one without a default empty', () => {
    expect(readFieldInput(field('firstLine'), '  ')).toEqual({ value: 'It was a dark and stormy night.' });
    expect(readFieldInput(field('integer'), '')).toEqual({ value: 42 });
    expect(readFieldInput(field('email'), '')).toEqual({ empty: true });
  });

  it('refuses an empty required field without a default', () => {
    expect(readFieldInput(field('name'), '')).toEqual({ error: 'String is required.' });
  });

  it('reads numbers and checks their kind and range', () => {
    expect(readFieldInput(field('integer'), '7')).toEqual({ value: 7 });
    expect(readFieldInput(field('integer'), '7.5')).toEqual({ error: 'Integer must be a whole number.' });
    expect(readFieldInput(field('integer'), '0')).toEqual({ error: 'Integer must be at least 1.' });
    expect(readFieldInput(field('integer'), '101')).toEqual({ error: 'Integer must be at most 100.' });
    expect(readFieldInput(field('number'), 'many')).toEqual({ error: 'Number must be a number, like 42 or 3.5.' });
    expect(readFieldInput(field('number'), '3.14')).toEqual({ value: 3.14 });
  });

  it('checks the formats an elicitation allows', () => {
    expect(readFieldInput(field('email'), 'ada@example.com')).toEqual({ value: 'ada@example.com' });
    expect(readFieldInput(field('email'), 'ada')).toEqual({
      error: 'Email must be an email address, like ada@example.com.',
    });
    const uri: FormField = { name: 'u', label: 'Homepage', required: false, kind: 'text', format: 'uri' };
    expect(readFieldInput(uri, 'not a url')).toEqual({ error: 'Homepage must be a URL, like https://example.com.' });
    const date: FormField = { name: 'd', label: 'Birthdate', required: false, kind: 'text', format: 'date' };
    expect(readFieldInput(date, '2024-02-30x')).toEqual({ error: 'Birthdate must be a date, like 2025-01-31.' });
    expect(readFieldInput(date, '1815-12-10')).toEqual({ value: '1815-12-10' });
  });

  it('checks a text’s length', () => {
    const code: FormField = { name: 'c', label: 'Code', required: true, kind: 'text', minLength: 4, maxLength: 6 };
    expect(readFieldInput(code, 'abc')).toEqual({ error: 'Code needs at least 4 characters.' });
    expect(readFieldInput(code, 'abcdefg')).toEqual({ error: 'Code takes at most 6 characters.' });
    expect(readFieldInput(code, 'abcd')).toEqual({ value: 'abcd' });
  });
});

describe('checkChoices', () => {
  it('checks the number of choices against minItems and maxItems', () => {
    const fish = field('fish') as FormField & { kind: 'choices' };
    expect(checkChoices(fish, [])).toBe('Fish: choose at least 1.');
    expect(checkChoices(fish, ['fish-1', 'fish-2', 'fish-3'])).toBe('Fish: choose at most 2.');
    expect(checkChoices(fish, ['fish-2'])).toBeUndefined();
  });
});
