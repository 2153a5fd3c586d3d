import type { AgentResult } from '@agentloop/core';
import { AgentloopError } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { endingMessage, stopReasonOf } from './run-ending.js';

const figures = {
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  iterations: 10,
  messages: [],
  durationMs: 1,
};
const result = (outcome: Record<string, unknown>) => ({ ...figures, ...outcome }) as unknown as AgentResult<unknown>;

describe('the end of a turn', () => {
  it('ends the turn for the three exit tools, and shows their payload as the agent’s message', () => {
    const done = result({ exit: 'task_completion', payload: { result: 'Fixed the sum.', artifacts: ['src/sum.js'] } });
    expect(stopReasonOf(done)).toBe('end_turn');
    expect(endingMessage(done)).toBe('Fixed the sum.\n\nArtifacts:\n- src/sum.js');

    const asked = result({ exit: 'ask_question', payload: { question: 'Which file?', suggestions: ['a.ts', 'b.ts'] } });
    expect(stopReasonOf(asked)).toBe('end_turn');
    expect(endingMessage(asked)).toBe('Which file?\n\n1. a.ts\n2. b.ts');

    const talked = result({ exit: 'converse', payload: { message: 'Hello!' } });
    expect(stopReasonOf(talked)).toBe('end_turn');
    expect(endingMessage(talked)).toBe('Hello!');
  });

  it('shows a typed result as JSON', () => {
    expect(endingMessage(result({ exit: 'task_completion', payload: { result: { risks: ['none'] } } }))).toBe(
      '{\n  "risks": [\n    "none"\n  ]\n}',
    );
  });

  it('maps the iteration cap to max_turn_requests, with the wrap-up summary when there is one', () => {
    const capped = result({ exit: 'max_iterations', payload: { result: 'Did A; B remains.' } });
    expect(stopReasonOf(capped)).toBe('max_turn_requests');
    expect(endingMessage(capped)).toBe(
      'Stopped after 10 model calls, the most one prompt may make.\n\nDid A; B remains.\n\nSend "continue" to go on.',
    );
    expect(endingMessage(result({ exit: 'max_iterations', payload: undefined }))).toBe(
      'Stopped after 10 model calls, the most one prompt may make.\n\nSend "continue" to go on.',
    );
  });

  it('maps a cancel to cancelled and an error to no stop reason, with no message', () => {
    const error = new AgentloopError('boom', { code: 'unknown' });
    expect(stopReasonOf(result({ exit: 'cancelled', payload: undefined, error }))).toBe('cancelled');
    expect(stopReasonOf(result({ exit: 'error', payload: undefined, error }))).toBeUndefined();
    expect(endingMessage(result({ exit: 'cancelled', payload: undefined, error }))).toBeUndefined();
    expect(endingMessage(result({ exit: 'error', payload: undefined, error }))).toBeUndefined();
  });
});
