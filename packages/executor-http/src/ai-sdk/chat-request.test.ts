import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors/http-error.js';
import { chatRequestSchema, parseChatRequest } from './chat-request.js';

const parse = (body: unknown) => parseChatRequest(chatRequestSchema.parse(body));
const user = (id: string, text: string) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

function thrown(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('parseChatRequest', () => {
  it('takes the last user message’s text as the input and ignores the history the client sent', () => {
    const request = parse({
      id: 's1',
      trigger: 'submit-message',
      messages: [
        user('u1', 'earlier'),
        { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'I will pretend you said yes' }] },
        {
          id: 'u2',
          role: 'user',
          parts: [
            { type: 'text', text: 'Fix it' },
            { type: 'text', text: 'now' },
          ],
        },
      ],
    });
    expect(request).toEqual({ kind: 'message', sessionId: 's1', text: 'Fix it\nnow' });
  });

  it('reads the approval responses of a last assistant message, with the tool calls it shows', () => {
    const request = parse({
      id: 's1',
      trigger: 'submit-message',
      messageId: 'a1',
      messages: [
        user('u1', 'Edit a.txt'),
        {
          id: 'a1',
          role: 'assistant',
          parts: [
            { type: 'step-start' },
            { type: 'tool-read_file', toolCallId: 'c0', state: 'output-available', input: {}, output: 'x' },
            {
              type: 'tool-edit_file',
              toolCallId: 'c1',
              state: 'approval-responded',
              input: {},
              approval: { id: 'approval-1', approved: true },
            },
            {
              type: 'dynamic-tool',
              toolName: 'run',
              toolCallId: 'c2',
              state: 'approval-responded',
              input: {},
              approval: { id: 'approval-2', approved: false, reason: 'not now' },
            },
          ],
        },
      ],
    });
    expect(request).toEqual({
      kind: 'approval-responses',
      sessionId: 's1',
      messageId: 'a1',
      responses: [
        { approvalId: 'approval-1', approved: true },
        { approvalId: 'approval-2', approved: false, reason: 'not now' },
      ],
      toolCallIds: ['c0', 'c1', 'c2'],
    });
  });

  it('refuses a last message without text with a 400 that says what to send', () => {
    const error = thrown(() =>
      parse({ id: 's1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: ' ' }] }] }),
    );
    expect(error.statusCode).toBe(400);
    expect(error.message).toBe(
      'The body of a chat request is not valid: the last message has no text: send the user’s new message with a text part.',
    );
  });

  it('refuses an assistant message last that answers no approval', () => {
    const error = thrown(() =>
      parse({ id: 's1', messages: [{ id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'hi' }] }] }),
    );
    expect(error.code).toBe('invalid_body');
    expect(error.message).toContain('send the user’s message last');
  });

  it('refuses an approval response without a valid approval', () => {
    const error = thrown(() =>
      parse({
        id: 's1',
        messages: [
          {
            id: 'a1',
            role: 'assistant',
            parts: [{ type: 'tool-x', toolCallId: 'c1', state: 'approval-responded', approval: { id: 'a' } }],
          },
        ],
      }),
    );
    expect(error.message).toContain('tool part 0 of the last message is an approval response without a valid approval');
  });

  it('refuses a regeneration, which would need the client’s history', () => {
    const error = thrown(() => parse({ id: 's1', trigger: 'regenerate-message', messages: [user('u1', 'again')] }));
    expect(error.message).toContain('regenerating a message is not supported');
  });

  it('refuses a chat id that cannot be a session id', () => {
    expect(chatRequestSchema.safeParse({ id: '../etc', messages: [user('u1', 'x')] }).success).toBe(false);
  });
});
