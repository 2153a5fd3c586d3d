import type { AgentEventMap } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { permissionOptions } from './request-permission.js';

const request = (
  overrides: Partial<AgentEventMap['approval-requested']> = {},
): AgentEventMap['approval-requested'] => ({
  type: 'approval-requested',
  iteration: 1,
  requestId: 'approval-1',
  toolCallId: 'call-1',
  name: 'everything__trigger-sampling-request',
  arguments: {},
  annotations: { readOnly: false, destructive: false, openWorld: true },
  reason: 'MCP server everything asks the model for a completion',
  choices: ['allow-once', 'allow-session', 'deny'],
  ...overrides,
});

describe('permissionOptions', () => {
  it('names a sampling request’s session grant as the tool’s use of the model, not its calls', () => {
    expect(permissionOptions(request({ kind: 'sampling' })).map((option) => option.name)).toEqual([
      'Allow once',
      'Always allow everything__trigger-sampling-request to use the model in this session',
      'Reject',
    ]);
    expect(permissionOptions(request())[1]?.name).toBe(
      'Always allow everything__trigger-sampling-request in this session',
    );
  });
});
