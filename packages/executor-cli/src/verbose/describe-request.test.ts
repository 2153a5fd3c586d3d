import type { ModelRequest } from '@agentloop/core';
import { describe, expect, it } from 'vitest';
import { describeRequest, quote } from './describe-request.js';

const URL_WITH_PASSWORD = 'postgres://app:averyveryverylongpassword@db/app';

describe('quote', () => {
  it('hides the password of a URL before it cuts the text, so no part of it is left for the log', () => {
    expect(quote(`Connect to ${URL_WITH_PASSWORD}`, 30)).toBe('"Connect to postgres://***@db/…" (+3 chars)');
  });
});

describe('describeRequest', () => {
  it('hides the password of a URL in a tool call of the conversation, however short the cut', () => {
    const request = {
      messages: [
        {
          role: 'assistant',
          content: [
            {
              type: 'tool-call',
              toolCallId: 'c1',
              toolName: 'run_command',
              arguments: { command: `psql ${URL_WITH_PASSWORD}` },
            },
          ],
        },
      ],
      tools: [],
      systemPrompt: 'You help.',
      toolChoice: 'auto',
    } as unknown as ModelRequest;

    const lines = describeRequest('request 1', request, { text: 40, messages: 6 }).join('\n');

    expect(lines).toContain('call run_command {"command":"psql postgres://***@db/app"}');
    expect(lines).not.toContain('averyvery');
  });
});
