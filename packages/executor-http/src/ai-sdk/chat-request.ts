import { z } from 'zod';
import { HttpError } from '../errors/http-error.js';
import { sessionIdSchema } from '../handler/handler-context.js';

// Only what the server reads is checked closely: the client's history is never trusted (the session store
// is the conversation's truth), so earlier messages need no more than a shape.
const partSchema = z.looseObject({ type: z.string() });
const messageSchema = z.looseObject({
  id: z.string(),
  role: z.enum(['system', 'user', 'assistant']),
  parts: z.array(partSchema),
});

/** The body the AI SDK's chat transport sends to `POST /api/chat` (`DefaultChatTransport`). */
export const chatRequestSchema = z.looseObject({
  /** The chat's id: the session's. */
  id: sessionIdSchema,
  messages: z.array(messageSchema).min(1, 'send at least the new message'),
  trigger: z.enum(['submit-message', 'regenerate-message']).optional(),
  messageId: z.string().optional(),
});

const approvalResponseSchema = z.object({
  toolCallId: z.string(),
  approval: z.object({
    id: z.string().min(1),
    approved: z.boolean(),
    reason: z.string().max(10_000).optional(),
  }),
});

/** The user's answer to one approval request, as the SDK's `addToolApprovalResponse` gave it. */
export interface ChatApprovalResponse {
  /** The approval id: the server's request id. */
  approvalId: string;
  approved: boolean;
  reason?: string;
}

/** What a chat request asks for: a new message, or answers to the approvals the run waits on. */
export type ChatRequest =
  | { kind: 'message'; sessionId: string; text: string }
  | {
      kind: 'approval-responses';
      sessionId: string;
      /** The assistant message the answers are in, which the response continues. */
      messageId: string;
      responses: ChatApprovalResponse[];
      /** The tool calls that message shows, whose results the response may carry. */
      toolCallIds: string[];
    };

/**
 * Reads what a validated chat body asks for from its last message only: a user message's text, or the
 * approval responses (`approval-responded` tool parts) of an assistant message. Throws a 400 HttpError that
 * says what to send instead for a body that asks for neither, or for a regeneration, which would need the
 * client's history.
 */
export function parseChatRequest(body: z.output<typeof chatRequestSchema>): ChatRequest {
  if (body.trigger === 'regenerate-message') {
    throw invalid(
      'regenerating a message is not supported, because the server keeps the conversation: send a new message instead',
    );
  }
  const last = body.messages[body.messages.length - 1];
  if (!last) throw invalid('messages is empty: send at least the new message');
  if (last.role === 'user') {
    const text = last.parts
      .flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
      .join('\n');
    if (text.trim() === '') {
      throw invalid('the last message has no text: send the user’s new message with a text part');
    }
    return { kind: 'message', sessionId: body.id, text };
  }
  if (last.role === 'assistant') {
    const toolParts = last.parts.filter(isToolPart);
    const responses = toolParts.flatMap((part, index): ChatApprovalResponse[] => {
      if (part.state !== 'approval-responded') return [];
      const parsed = approvalResponseSchema.safeParse(part);
      if (!parsed.success) {
        throw invalid(
          `tool part ${index} of the last message is an approval response without a valid approval (id, approved, reason)`,
        );
      }
      const { approval } = parsed.data;
      return [
        {
          approvalId: approval.id,
          approved: approval.approved,
          ...(approval.reason === undefined ? {} : { reason: approval.reason }),
        },
      ];
    });
    if (responses.length > 0) {
      return {
        kind: 'approval-responses',
        sessionId: body.id,
        messageId: last.id,
        responses,
        toolCallIds: toolParts.flatMap((part) => (typeof part.toolCallId === 'string' ? [part.toolCallId] : [])),
      };
    }
  }
  throw invalid(
    'the last message is neither the user’s new message nor an answer to an approval request: send the user’s message last',
  );
}

function isToolPart(part: z.output<typeof partSchema>): boolean {
  return part.type === 'dynamic-tool' || part.type.startsWith('tool-');
}

function invalid(problem: string): HttpError {
  return new HttpError(`The body of a chat request is not valid: ${problem}.`, {
    code: 'invalid_body',
    statusCode: 400,
  });
}
