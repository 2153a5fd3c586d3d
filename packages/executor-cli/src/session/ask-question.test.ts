import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { answerFromLine, clackQuestionPrompter } from './ask-question.js';

// What a model may put in a question: a clipboard write (OSC 52), a window title (OSC 0), a screen clear,
// a hyperlink (OSC 8), a device control string, a one-byte C1 CSI and a right-to-left override.
const HOSTILE =
  '\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x1b\\\x1b[2J\x1b]8;;http://evil\x07link\x1b]8;;\x07\x1bPq#0\x1b\\\x9b2J\u202etxt.exe';
// biome-ignore lint/suspicious/noControlCharactersInRegex: control sequences are what must not be written
const CONTROLS = /\x1b\]|\x1bP|\x1b\[2J|[\x80-\x9f\u202a-\u202e\u2066-\u2069]/;

/** Asks on a terminal stand-in, typing `keys`; resolves with the answer and everything the prompt wrote. */
async function askOnTerminal(question: { question: string; suggestions?: string[] }, keys: string) {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  let written = '';
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  input.write(keys);
  const answer = await clackQuestionPrompter(input, output)(question);
  return { answer, written };
}

describe('clackQuestionPrompter', () => {
  it('shows the question and its suggestions without their control sequences, and answers as the model wrote', async () => {
    const { answer, written } = await askOnTerminal(
      { question: `Which file?${HOSTILE}`, suggestions: [`first${HOSTILE}`, 'second'] },
      '\r',
    );
    expect(written).not.toMatch(CONTROLS);
    expect(written).toContain('Which file?linktxt.exe');
    expect(written).toContain('firstlinktxt.exe');
    expect(answer).toBe(`first${HOSTILE}`);
  });

  it('shows a question without suggestions stripped too', async () => {
    const { answer, written } = await askOnTerminal({ question: `Your name?${HOSTILE}` }, 'Ada\r');
    expect(written).not.toMatch(CONTROLS);
    expect(written).toContain('Your name?linktxt.exe');
    expect(answer).toBe('Ada');
  });
});

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
