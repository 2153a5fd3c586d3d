import type { AgentEventMap } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { toPendingElicitation } from './pending-elicitation.js';

const requested = (
  fields: Partial<AgentEventMap['elicitation-requested']>,
): AgentEventMap['elicitation-requested'] => ({
  type: 'elicitation-requested',
  iteration: 1,
  requestId: 'e1',
  toolCallId: 'c1',
  name: 'book_table',
  message: 'Which table?',
  mode: 'form',
  ...fields,
});

describe('toPendingElicitation', () => {
  it('keeps the fields of its mode only, as both streams show the request', () => {
    const page = toPendingElicitation(
      requested({ mode: 'url', url: 'https://example.test/sign-in', schema: { type: 'object' }, server: 'auth' }),
      [],
      1_000,
    );
    expect(page).toEqual({
      requestId: 'e1',
      toolCallId: 'c1',
      name: 'book_table',
      server: 'auth',
      message: 'Which table?',
      mode: 'url',
      url: 'https://example.test/sign-in',
      path: [],
      expiresAt: 1_000,
    });
  });

  it('gives a form without a schema an empty object form, and leaves out the loop-only fields', () => {
    const form = toPendingElicitation(requested({}), [{ toolCallId: 'p1', toolName: 'helper' }], 2_000);
    expect(form).toEqual({
      requestId: 'e1',
      toolCallId: 'c1',
      name: 'book_table',
      message: 'Which table?',
      mode: 'form',
      schema: { type: 'object' },
      path: [{ toolCallId: 'p1', toolName: 'helper' }],
      expiresAt: 2_000,
    });
  });
});
