import type { AgentResult } from '@agentloop/core';
import { AgentloopError, ProviderError } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { exitStatus, failureLine } from './failure-line.js';

const refused = (code: ConstructorParameters<typeof ProviderError>[1]['code'], provider = 'openai') =>
  new ProviderError(`Error from the server at http://127.0.0.1:8080/v1 (${code}): refused`, { code, provider });

describe('failureLine', () => {
  it('says which key to check when the server rejected the one that was sent', () => {
    expect(failureLine(refused('authentication', 'anthropic'), { ANTHROPIC_API_KEY: 'sk-ant-wrong' })).toBe(
      'Error from the server at http://127.0.0.1:8080/v1 (authentication): refused. Check ANTHROPIC_API_KEY: the server did not accept it (or unset it to run on the scripted model).',
    );
  });

  it("adds nothing when no key was sent: the provider's line already says to set one", () => {
    expect(failureLine(refused('authentication'), {})).toBe(
      'Error from the server at http://127.0.0.1:8080/v1 (authentication): refused',
    );
  });

  it.each([
    ['not_found', 'Check the model name in OPENAI_MODEL, and the server in OPENAI_BASE_URL.'],
    ['permission', 'The API key may lack access to this model: pick another with OPENAI_MODEL.'],
    ['rate_limit', 'Wait a minute and run it again.'],
    ['server_error', "Run it again; if it keeps failing, check the server's status."],
    ['context_length', 'Give a shorter task, or a model with a larger context window.'],
  ] as const)('says what to do about %s', (code, todo) => {
    expect(failureLine(refused(code), {})).toBe(
      `Error from the server at http://127.0.0.1:8080/v1 (${code}): refused. ${todo}`,
    );
  });

  it('keeps the first line of an error that is not a model call’s, and of anything thrown', () => {
    expect(failureLine(new AgentloopError('No model is set: set OPENAI_MODEL.\nmore', { code: 'setup' }), {})).toBe(
      'No model is set: set OPENAI_MODEL.',
    );
    expect(failureLine('plain words', {})).toBe('plain words');
  });
});

describe('exitStatus', () => {
  it('is 0 for an answer and 1 for a failure, which it prints with what to do', () => {
    const lines: string[] = [];
    const answered = { exit: 'converse' } as AgentResult;
    const failed = { exit: 'error', payload: undefined, error: refused('overloaded') } as unknown as AgentResult;
    const limited = { exit: 'max_iterations' } as AgentResult;

    expect(exitStatus(answered, (line) => lines.push(line), {})).toBe(0);
    expect(exitStatus(failed, (line) => lines.push(line), {})).toBe(1);
    expect(exitStatus(limited, (line) => lines.push(line), {})).toBe(1);
    expect(lines).toEqual([
      '✗ Error from the server at http://127.0.0.1:8080/v1 (overloaded): refused. Wait a minute and run it again.',
      '✗ The run ended at its iteration limit before the model finished: give a smaller task, or raise maxIterations in src/main.ts.',
    ]);
  });
});
