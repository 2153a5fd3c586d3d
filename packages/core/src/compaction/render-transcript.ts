import type { Message } from '@agentloop/spec';

/** Limits of a transcript. */
export interface TranscriptLimits {
  /** The most tokens the transcript may hold; the oldest messages are left out past it. */
  maxTokens: number;
  /** Counts the tokens of a text. */
  countText: (text: string) => number;
  /** The longest tool result kept, in characters; longer ones keep their start and end. Default 2,000. */
  maxResultChars?: number;
  /** The longest reasoning kept, in characters. Default 1,000. */
  maxThinkingChars?: number;
}

/** A transcript, and how many of the oldest messages did not fit in it. */
export interface Transcript {
  text: string;
  omittedMessages: number;
}

/**
 * The messages as a plain-text transcript for a summarising model: who said what, each tool call with
 * its arguments, and each result, long results and reasoning cut in the middle. Plain text rather than
 * messages, so that any model can read it (no tool-call pairing, no provider's reasoning signatures) and
 * so that it can be cut to fit the summariser's window: the newest messages are kept first.
 */
export function renderTranscript(messages: readonly Message[], limits: TranscriptLimits): Transcript {
  const maxResultChars = limits.maxResultChars ?? 2_000;
  const maxThinkingChars = limits.maxThinkingChars ?? 1_000;
  const blocks: string[] = [];
  let tokens = 0;
  let index = messages.length - 1;
  for (; index >= 0; index--) {
    const block = renderMessage(messages[index] as Message, maxResultChars, maxThinkingChars);
    const blockTokens = limits.countText(block);
    if (tokens + blockTokens > limits.maxTokens && blocks.length > 0) break;
    tokens += blockTokens;
    blocks.push(block);
  }
  const omittedMessages = index + 1;
  const note =
    omittedMessages > 0
      ? [`[The ${omittedMessages} oldest messages of this part are left out: they did not fit.]`]
      : [];
  return { text: [...note, ...blocks.reverse()].join('\n\n'), omittedMessages };
}

function renderMessage(message: Message, maxResultChars: number, maxThinkingChars: number): string {
  const lines: string[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        // The XML protocol's results come back as a user message of <tool_result> blocks.
        if (message.role === 'user' && part.text.startsWith('<tool_result'))
          lines.push(`[tool results]\n${cutMiddle(part.text, maxResultChars)}`);
        else lines.push(`[${message.role}]\n${part.text}`);
        break;
      case 'thinking':
        if (part.text) lines.push(`[assistant thinking]\n${cutMiddle(part.text, maxThinkingChars)}`);
        break;
      case 'tool-call':
        lines.push(`[assistant called ${part.toolName}] ${cutMiddle(argumentsText(part.arguments), maxResultChars)}`);
        break;
      case 'tool-result':
        lines.push(
          `[${part.toolName} ${part.isError ? 'error' : 'result'}]\n${cutMiddle(part.content, maxResultChars)}`,
        );
        break;
    }
  }
  return lines.join('\n');
}

/** The text, or its start and end around a note of how much was cut when it is longer than `max`. */
export function cutMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil((max * 2) / 3);
  const tail = max - head;
  return `${text.slice(0, head)}\n[… ${(text.length - max).toLocaleString('en-US')} characters cut …]\n${text.slice(text.length - tail)}`;
}

function argumentsText(value: unknown): string {
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  } catch {
    return '(arguments that cannot be shown)';
  }
}
