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

  it('repairs a missing closing brace and says so', () => {
    expect(parseToolArguments('{"path": "src/index.ts", "options": {"recursive": true}')).toStrictEqual({
      ok: true,
      value: { path: 'src/index.ts', options: { recursive: true } },
      repaired: true,
    });
  });

  it('repairs single-quoted keys and strings', () => {
    expect(parseToolArguments("{'query': 'weather'}")).toStrictEqual({
      ok: true,
      value: { query: 'weather' },
      repaired: true,
    });
  });

  it('reports text that cannot be repaired, asking for one JSON object', () => {
    expect(parseToolArguments('}}}{{{')).toStrictEqual({
      ok: false,
      message: expect.stringMatching(/^the arguments are not valid JSON \(.+\); send them as one JSON object$/),
    });
  });
});

it('does not take prose for repaired arguments', () => {
  expect(parseToolArguments('I will search for the weather now.')).toMatchObject({ ok: false });
});
