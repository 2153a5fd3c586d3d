import { parse, TomlError } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { describeTomlError } from './toml-syntax-error.js';

function describeText(text: string) {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof TomlError) return describeTomlError(text, error);
    throw error;
  }
  throw new Error('expected a TOML error');
}

describe('describeTomlError', () => {
  it('names a string left open at the end of its line, at its opening quote', () => {
    expect(describeText('provider = "openai"\nmodel = "gpt-5\nprotocol = "xml"\n')).toEqual({
      line: 2,
      column: 9,
      problem: 'unterminated string: the " here has no closing " on its line',
    });
  });

  it('finds the open string after closed ones, escaped quotes and in inline tables and arrays', () => {
    expect(describeText('a = ["x", "y]\n')).toMatchObject({ line: 1, column: 11 });
    expect(describeText('a = { b = "c }\n')).toMatchObject({ line: 1, column: 11 });
    expect(describeText('[t]\nmodel = "m\\"\n')).toMatchObject({ line: 2, column: 9 });
    expect(describeText("a = 'C:\\dir\nb = 1\n")).toEqual({
      line: 1,
      column: 5,
      problem: "unterminated string: the ' here has no closing ' on its line",
    });
    expect(describeText('a = "abc\r\nb = 1\r\n')).toMatchObject({ line: 1, column: 5 });
  });

  it('names a string left open at the end of the file', () => {
    expect(describeText('a = "abc')).toMatchObject({
      line: 1,
      column: 5,
      problem: expect.stringMatching(/^unterminated string/),
    });
    expect(describeText('a = """abc\nb = 1\n')).toEqual({
      line: 1,
      column: 5,
      problem: 'unterminated string: the """ here has no closing """ before the end of the file',
    });
  });

  it("keeps smol-toml's words for a real control character and for other errors", () => {
    expect(describeText('a = "ab\x01c"\n')).toEqual({
      line: 1,
      column: 8,
      problem: 'control characters are not allowed in strings',
    });
    expect(describeText('model = \n')).toMatchObject({ line: 1, problem: expect.not.stringMatching(/unterminated/) });
  });
});
