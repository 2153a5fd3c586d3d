import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { clackApprovalPrompter, refusingApprovalPrompter } from './approval-prompter.js';
import type { ApprovalScreen } from './approval-screen.js';

const screen: ApprovalScreen = {
  text: '⚠ run_command needs your approval (run_command can change things)\n  $ npm test\n',
  question: 'Run this command?',
  choices: [
    { key: 'y', label: 'Yes, once', answer: { decision: 'allow-once' } },
    {
      key: 'a',
      label: "Yes, and don't ask again this session for commands starting with `npm test`",
      answer: { decision: 'allow-session', commandPrefix: 'npm test' },
    },
    { key: 'n', label: 'No, and tell the agent what to do instead', answer: { decision: 'deny' } },
  ],
};

/** A terminal stand-in: an input to type into, and an output that can wait until it shows a text. */
function terminal() {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
  let written = '';
  const waiting: { text: string; resolve: () => void }[] = [];
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
    for (const wait of waiting.filter((entry) => written.includes(entry.text))) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  });
  const shown = (text: string) =>
    written.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ text, resolve }));
  return { input, output, shown, written: () => written };
}

/** Answers the screen, typing each key once the prompt it is for is drawn: the list, then the message. */
async function answer(...keys: string[]) {
  const { input, output, shown, written } = terminal();
  const pending = clackApprovalPrompter(input, output, createStyle(false))(screen, new AbortController().signal);
  const [choice, ...message] = keys;
  await shown('↑/↓ and Enter');
  input.write(choice ?? '');
  if (message.length > 0) {
    await shown('What should the agent do instead?');
    for (const key of message) input.write(key);
  }
  return { answer: await pending, written: written() };
}

describe('clackApprovalPrompter', () => {
  it('shows the request and its choices with their keys, and answers y at once', async () => {
    const { answer: given, written } = await answer('y');
    expect(given).toEqual({ decision: 'allow-once' });
    expect(written).toContain('$ npm test');
    expect(written).toContain('Run this command?');
    expect(written).toContain("Yes, and don't ask again this session for commands starting with `npm test` (a)");
    expect(written).toContain('↑/↓ and Enter, or y / a / n');
  });

  it('answers a for the session with the command prefix', async () => {
    expect((await answer('a')).answer).toEqual({ decision: 'allow-session', commandPrefix: 'npm test' });
  });

  it('picks with the arrow keys and Enter, and refuses with the message typed after n', async () => {
    const { answer: given, written } = await answer('\x1b[B\x1b[B\r', 'use the other file\r');
    expect(given).toEqual({ decision: 'deny', message: 'use the other file' });
    expect(written).toContain('What should the agent do instead?');
  });

  it('refuses without a message when Enter is pressed alone after n', async () => {
    expect((await answer('n', '\r')).answer).toEqual({ decision: 'deny' });
  });

  it('resolves interrupt on Ctrl-C, and refuses on Esc', async () => {
    expect((await answer('\x03')).answer).toBe('interrupt');
    expect((await answer('\x1b')).answer).toEqual({ decision: 'deny' });
  });

  it('resolves cancelled when the request is withdrawn', async () => {
    const { input, output, shown } = terminal();
    const abort = new AbortController();
    const pending = clackApprovalPrompter(input, output, createStyle(false))(screen, abort.signal);
    await shown('↑/↓ and Enter');
    abort.abort();
    expect(await pending).toBe('cancelled');
  });
});

describe('refusingApprovalPrompter', () => {
  it('shows the request and refuses it, telling the model why', async () => {
    const output = new PassThrough();
    let written = '';
    output.on('data', (chunk: Buffer) => {
      written += chunk.toString('utf8');
    });
    const given = await refusingApprovalPrompter(output, createStyle(false))(screen, new AbortController().signal);
    expect(given).toMatchObject({ decision: 'deny', message: expect.stringContaining('no one can approve calls') });
    expect(written).toBe(`${screen.text}⊘ Refused: there is no terminal to ask for approval.\n`);
  });
});
