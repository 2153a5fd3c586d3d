import type { Agent, AgentEventMap, ApprovalAnswer } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { ApprovalDesk } from './approval-desk.js';

const request: AgentEventMap['approval-requested'] = {
  type: 'approval-requested',
  iteration: 1,
  requestId: 'approval-1',
  toolCallId: 'call-1',
  name: 'run_command',
  arguments: { command: 'make' },
  command: 'make',
  annotations: { readOnly: false, destructive: true, openWorld: true },
  reason: 'run_command can change things',
  choices: ['allow-once', 'allow-session', 'deny'],
};

describe('ApprovalDesk', () => {
  it('refuses the call when its screen cannot be shown, rather than leaving the run waiting', async () => {
    const answers: [string, ApprovalAnswer][] = [];
    let released!: () => void;
    const done = new Promise<void>((resolve) => {
      released = resolve;
    });
    const agent = {
      answerApproval: (requestId: string, answer: ApprovalAnswer) => answers.push([requestId, answer]),
    } as unknown as Agent;
    const desk = new ApprovalDesk({
      agent,
      prompter: async () => {
        throw new Error('write EPIPE');
      },
      preview: { workspace: '/nowhere' },
      style: createStyle(false),
      width: 80,
      hold: () => {},
      release: () => released(),
      interrupt: () => {},
    });
    desk.request(request);
    await done;
    expect(answers).toEqual([
      [
        'approval-1',
        { decision: 'deny', message: 'The approval screen failed (write EPIPE), so the call was not approved.' },
      ],
    ]);
  });
});
