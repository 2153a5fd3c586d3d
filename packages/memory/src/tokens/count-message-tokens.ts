import type { Message, ToolDefinition } from '@agentloop/spec';

/**
 * Characters per token of the estimate for a model without a tokenizer: Claude's tokenizer, unpublished,
 * makes about one token of 3.5 characters of English prose and fewer of code and JSON. Calibrated on the
 * recorded fixtures (`bench/token-estimate.bench.mjs` measures how far off it is).
 */
export const DEFAULT_CHARS_PER_TOKEN = 3.5;

/** The tokens that frame a message (its role, its boundaries), whatever it holds. */
const MESSAGE_TOKENS = 4;
/** The tokens that frame a tool call beside its name and arguments (the block, the id). */
const TOOL_CALL_TOKENS = 12;
/** The tokens that frame a tool result beside its content (the block, the id it answers). */
const TOOL_RESULT_TOKENS = 8;
/** The tokens that frame one tool definition beside its name, description and schema. */
const TOOL_DEFINITION_TOKENS = 10;
/**
 * The system prompt a provider adds to a request that offers tools: Anthropic documents 313 to 346 tokens
 * for its Claude 4 models, and the recorded request with one tool shows it.
 */
const TOOL_PROMPT_TOKENS = 300;

/** The tokens of one text; an estimate or a tokenizer's exact count. */
export type CountText = (text: string) => number;

/** An estimate of a text's tokens from its length: `charsPerToken` characters a token, rounded up. */
export function estimateTextTokens(text: string, charsPerToken = DEFAULT_CHARS_PER_TOKEN): number {
  return Math.ceil(text.length / charsPerToken);
}

/**
 * The tokens of `messages` from index `from` on, as a request carries them: each part's text through
 * `countText`, tool arguments as the JSON sent, and the framing of each message, call and result. Reasoning
 * signatures and redacted reasoning are opaque data, not tokens the model reads, and are left out.
 */
export function countMessageTokens(messages: readonly Message[], countText: CountText, from = 0): number {
  let tokens = 0;
  for (let index = from; index < messages.length; index++) {
    const message = messages[index] as Message;
    tokens += MESSAGE_TOKENS;
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
        case 'thinking':
          tokens += countText(part.text);
          break;
        case 'tool-call':
          tokens += TOOL_CALL_TOKENS + countText(part.toolName) + countText(argumentsText(part.arguments));
          break;
        case 'tool-result':
          tokens += TOOL_RESULT_TOKENS + countText(part.content);
          break;
      }
    }
  }
  return tokens;
}

/**
 * The tokens of tool definitions as a request carries them: name, description and JSON Schema, and the
 * provider's own prompt for tool use.
 */
export function countToolTokens(tools: readonly ToolDefinition[], countText: CountText): number {
  if (tools.length === 0) return 0;
  let tokens = TOOL_PROMPT_TOKENS;
  for (const tool of tools) {
    tokens +=
      TOOL_DEFINITION_TOKENS +
      countText(tool.name) +
      countText(tool.description) +
      countText(JSON.stringify(tool.inputSchema));
  }
  return tokens;
}

function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    // A history that cannot be serialised is refused before any request; counting must not throw first.
    return '';
  }
}
