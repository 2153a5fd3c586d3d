import { describe, expect, it } from 'vitest';
import { parseToolArguments } from './tool-arguments.js';

describe('parseToolArguments', () => {
  it('decodes valid JSON without repair', () => {
    expect(parseToolArguments('{"query": "node 24", "limit": 3}')).toStrictEqual({
      ok: true,
      value: { query: 'node 24', limit: 3 },
      repaired: false,
    });
  });

  it('reads empty text as no arguments', () => {
    expect(parseToolArguments('')).toStrictEqual({ ok: true, value: {}, repaired: false });
  });

  it('reads whitespace-only text as no arguments', () => {
    expect(parseToolArguments(' \n\t ')).toStrictEqual({ ok: true, value: {}, repaired: false });
  });

  it('repairs a trailing comma and says so', () => {
    expect(parseToolArguments('{"a": 1,}')).toStrictEqual({ ok: true, value: { a: 1 }, repaired: true });
  });

  it('refuses arguments left with an object open: they may have been cut off, not merely sloppy', () => {
    expect(parseToolArguments('{"path": "src/index.ts", "options": {"recursive": true}')).toStrictEqual({
      ok: false,
      problem: 'cut_off',
      message:
        'the arguments were cut off before they were complete (the JSON text ends with 1 objects or arrays left open); the call was not run: send the whole call again',
    });
  });

  it('repairs a missing last brace where the caller knows the text is whole (a closed XML block)', () => {
    expect(
      parseToolArguments('{"path": "src/index.ts", "options": {"recursive": true}', { whole: true }),
    ).toStrictEqual({ ok: true, value: { path: 'src/index.ts', options: { recursive: true } }, repaired: true });
  });

  it('repairs single-quoted keys and strings', () => {
    expect(parseToolArguments("{'query': 'weather'}")).toStrictEqual({
      ok: true,
      value: { query: 'weather' },
      repaired: true,
    });
  });

  it('reports text that cannot be repaired, asking for one JSON object', () => {
    expect(parseToolArguments('}}}{{{}}}')).toStrictEqual({
      ok: false,
      problem: 'invalid_json',
      message: expect.stringMatching(/^the arguments are not valid JSON \(.+\); send them as one JSON object$/),
    });
  });
});

it('does not take prose for repaired arguments', () => {
  expect(parseToolArguments('I will search for the weather now.')).toMatchObject({ ok: false });
});

describe('cut-off arguments are refused, never repaired', () => {
  it.each([
    ['inside a string', '{"text": "hel', 'ends inside a string'],
    ['inside a command', '{"command": "rm -rf build && make', 'ends inside a string'],
    ['after a comma', '{"command": "make", ', 'ends where a value was still to come'],
    ['after a colon', '{"command": ', 'ends where a value was still to come'],
    ['with a nested object open', '{"a": {"b": 1}, "c": {"d": 2', 'ends with 2 objects or arrays left open'],
  ])('refuses text cut %s', (_where, text, why) => {
    expect(parseToolArguments(text)).toStrictEqual({
      ok: false,
      problem: 'cut_off',
      message: `the arguments were cut off before they were complete (the JSON text ${why}); the call was not run: send the whole call again`,
    });
  });

  it.each([
    ['in a code fence', '```json\n{"text": "hel', 'ends inside a string'],
    ['in a code fence that was closed', '```json\n{"text": {"a": 1}\n```', 'ends with 1 objects or arrays left open'],
    ['after leading whitespace', '\n  {"text": "hel', 'ends inside a string'],
    ['after prose', 'Here are the arguments: {"path": "a.ts", ', 'ends where a value was still to come'],
    ['after a comment', '// the call\n{"text": "hel', 'ends inside a string'],
    ['in a JSONP callback', 'call({"text": "hel', 'ends inside a string'],
    ['right after its brace, in a code fence', '```json\n{', 'ends with 1 objects or arrays left open'],
  ])('refuses an object cut off %s', (_where, text, why) => {
    expect(parseToolArguments(text)).toStrictEqual({
      ok: false,
      problem: 'cut_off',
      message: `the arguments were cut off before they were complete (the JSON text ${why}); the call was not run: send the whole call again`,
    });
  });

  it('does not take braces that open no object for an object cut off', () => {
    expect(parseToolArguments('not json at all {{{')).toMatchObject({ ok: false, problem: 'invalid_json' });
  });

  it.each([
    ['a closed fence', '```json\n{"text": "hello",}\n```', { text: 'hello' }],
    ['a fence and unquoted keys', "```\n{text: 'hello'}\n```", { text: 'hello' }],
    ['a comment and a trailing comma', '// the call\n{"a": [1, 2,],}', { a: [1, 2] }],
  ])('still repairs a whole object in %s', (_wrapping, text, value) => {
    expect(parseToolArguments(text)).toStrictEqual({ ok: true, value, repaired: true });
  });

  it('still repairs sloppy JSON whose structure is whole', () => {
    expect(parseToolArguments("{'a': 'x, y', \"b\": [1, 2,],}")).toStrictEqual({
      ok: true,
      value: { a: 'x, y', b: [1, 2] },
      repaired: true,
    });
  });

  it('does not count braces inside strings', () => {
    expect(parseToolArguments('{"code": "if (x) { y(\\"}\\") ", "n": 1,}')).toStrictEqual({
      ok: true,
      value: { code: 'if (x) { y("}") ', n: 1 },
      repaired: true,
    });
  });
});

describe('oversized arguments are refused before they are parsed', () => {
  it('refuses arguments nested 10,000 deep', () => {
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    expect(parseToolArguments(deep)).toStrictEqual({
      ok: false,
      problem: 'too_deep',
      message: 'the arguments nest 10000 levels deep, more than the 64 allowed; send flatter arguments',
    });
  });

  it('accepts arguments nested exactly 64 deep', () => {
    const deep = `${'['.repeat(63)}{"a":1}${']'.repeat(63)}`;
    expect(parseToolArguments(`{"x": ${deep}}`)).toMatchObject({ ok: false, problem: 'too_deep' });
    expect(parseToolArguments(`{"x": ${'['.repeat(62)}1${']'.repeat(62)}}`)).toMatchObject({ ok: true });
  });

  it('refuses argument text over the size limit', () => {
    const big = `{"text": "${'x'.repeat(2_000_000)}"}`;
    expect(parseToolArguments(big)).toMatchObject({ ok: false, problem: 'too_large' });
  });
});
