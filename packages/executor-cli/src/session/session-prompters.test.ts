import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ApprovalPrompter } from '../approval/index.js';
import { createStyle } from '../render/index.js';
import { MemoryOutput } from '../test-support/index.js';
import type { QuestionPrompter } from './ask-question.js';
import type { TerminalInput } from './line-reader.js';
import { SessionPrompters } from './session-prompters.js';

const askQuestion: QuestionPrompter = async () => 'yes';
const approve: ApprovalPrompter = async () => ({ decision: 'allow-once' });

function prompters(onTerminal: boolean, options: ConstructorParameters<typeof SessionPrompters>[0]['options'] = {}) {
  const input = Object.assign(new PassThrough(), { isTTY: onTerminal }) as TerminalInput;
  const output = new MemoryOutput(onTerminal);
  return { output, prompters: new SessionPrompters({ options, input, output, style: createStyle(false) }) };
}

describe('SessionPrompters', () => {
  it('asks the app’s question prompter on a terminal', () => {
    expect(prompters(true, { askQuestion }).prompters.question).toBe(askQuestion);
  });

  it('has no one to ask questions or fill in forms off a terminal, even with the app’s prompters', () => {
    const { prompters: offTerminal } = prompters(false, { askQuestion, elicit: async () => ({ action: 'decline' }) });

    expect(offTerminal.question).toBeUndefined();
    expect(offTerminal.elicit).toBeDefined();
    expect(prompters(false).prompters.elicit).toBeUndefined();
  });

  it('uses the app’s approval prompter anywhere, and refuses calls off a terminal without one', async () => {
    expect(prompters(false, { approve }).prompters.approve).toBe(approve);
    const { output, prompters: offTerminal } = prompters(false);

    const answer = await offTerminal.approve(
      { text: 'run rm -rf build\n' } as Parameters<ApprovalPrompter>[0],
      new AbortController().signal,
    );

    expect(answer).toMatchObject({ decision: 'deny' });
    expect(output.text).toContain('Refused: there is no terminal to ask for approval.');
  });
});
