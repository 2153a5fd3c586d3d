import type { ApprovalMode, ApprovalRequest } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { followingApproval } from './following-approval.js';

const write: ApprovalRequest = {
  toolCallId: 'c1',
  toolName: 'write_file',
  arguments: { path: 'a.txt', content: 'a' },
  annotations: { readOnly: false, destructive: true, openWorld: false },
  command: undefined,
  sessionId: 's',
  workspace: '/w',
};

describe('followingApproval', () => {
  it('decides by the mode the session has at each call', async () => {
    let mode: ApprovalMode = 'ask';
    const policy = followingApproval(() => ({ mode }));
    expect(await policy.decide(write)).toMatchObject({ action: 'ask' });
    mode = 'yolo';
    expect(await policy.decide(write)).toEqual({ action: 'allow' });
    mode = 'read-only';
    expect(await policy.decide(write)).toMatchObject({ action: 'deny' });
  });
});
