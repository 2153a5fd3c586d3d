import type { PendingQuestion } from '@agentloop/memory';
import type { Message, Usage } from '@agentloop/spec';
import { z } from 'zod';

// The values both stores save inside their records: messages, usage, a pending question. Objects keep
// fields they do not name (`looseObject`): a part's provider metadata, or a field a later version of the
// message model adds, must come back as it was saved.

const providerMetadata = z.record(z.string(), z.unknown()).optional();

const textPart = z.looseObject({ type: z.literal('text'), text: z.string() });

const thinkingPart = z.looseObject({
  type: z.literal('thinking'),
  text: z.string(),
  signature: z.string().optional(),
  redactedData: z.string().optional(),
  providerMetadata,
});

const toolCallPart = z.looseObject({
  type: z.literal('tool-call'),
  toolCallId: z.string(),
  toolName: z.string(),
  arguments: z.unknown(),
  providerMetadata,
});

const toolResultPart = z.looseObject({
  type: z.literal('tool-result'),
  toolCallId: z.string(),
  toolName: z.string(),
  content: z.string(),
  images: z.array(z.looseObject({ mediaType: z.string(), data: z.string() })).optional(),
  isError: z.boolean(),
});

/** A message of the conversation, as `@agentloop/spec` models it. */
export const messageSchema: z.ZodType<Message> = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: z.array(textPart) }),
  z.looseObject({ role: z.literal('user'), content: z.array(textPart) }),
  z.looseObject({
    role: z.literal('assistant'),
    content: z.array(z.discriminatedUnion('type', [textPart, thinkingPart, toolCallPart])),
  }),
  z.looseObject({ role: z.literal('tool'), content: z.array(toolResultPart) }),
]) as z.ZodType<Message>;

const tokens = z.number().int().nonnegative();

/** Token usage: every field of `Usage`. */
export const usageSchema: z.ZodType<Usage> = z.looseObject({
  inputTokens: tokens,
  outputTokens: tokens,
  cacheReadTokens: tokens,
  cacheWriteTokens: tokens,
  reasoningTokens: tokens,
});

/** The question an `ask_question` exit left waiting. */
export const pendingQuestionSchema: z.ZodType<PendingQuestion> = z.object({
  question: z.string(),
  suggestions: z.array(z.string()).optional(),
});

/** A date as the stores write it: an ISO 8601 text. */
export const isoDateSchema = z.iso.datetime({ offset: true });

/** Where a fork started: the session it was made from, and how many of its messages it kept. */
export const forkedFromSchema = z.object({ sessionId: z.string(), messageCount: z.number().int().nonnegative() });
