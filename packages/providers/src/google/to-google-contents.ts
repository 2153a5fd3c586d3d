import type { AssistantMessage, Message, ToolMessage } from '@agentloop/spec';
import type { Content, Part } from '@google/genai';
import { memoizeContent } from './memoize-content.js';

/** The conversation in the Gemini API's shape. */
export interface GoogleConversation {
  /** Text of `system` messages found in the history (the request's system prompt goes first). */
  systemText: string[];
  contents: Content[];
}

/** Where a thought signature came from, kept in `providerMetadata.google` so it goes back on the same kind of part. */
export interface GoogleThinkingMetadata {
  /** `thought`: a thought summary part; `text`: a part of the answer's text. */
  part: 'thought' | 'text';
}

/**
 * The signature Google documents for a function call whose real signature is lost (a conversation that
 * began with another provider): Gemini 3 rejects a model turn whose calls carry none.
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** How the conversion treats calls without a signature. */
export interface GoogleContentsOptions {
  /** The model validates thought signatures on function calls (Gemini 3 and later). */
  requiresThoughtSignatures: boolean;
}

/**
 * Converts the project's messages to Gemini's contents. Assistant messages become `model` turns, with each
 * thought signature back on the kind of part it came with (a thought, the answer's text, a function call);
 * thinking of another provider (no Gemini metadata) is left out, since its signature means nothing here.
 * Tool results become `functionResponse` parts of a `user` turn (merged with user text that follows, since
 * a turn's role must change), the call's id on both sides. Images in tool results are not sent: the
 * result's text describes them.
 */
export function toGoogleContents(history: readonly Message[], options: GoogleContentsOptions): GoogleConversation {
  const convert = options.requiresThoughtSignatures ? convertSigned : convertPlain;
  const systemText: string[] = [];
  const contents: Content[] = [];
  for (const message of history) {
    if (message.role === 'system') {
      for (const part of message.content) if (part.text !== '') systemText.push(part.text);
      continue;
    }
    const content = convert(message);
    if (!content || content.parts?.length === 0) continue;
    const last = contents.at(-1);
    if (last && last.role === content.role) {
      // Copied: the memoized content of an earlier message must not grow.
      contents[contents.length - 1] = { role: last.role, parts: [...(last.parts ?? []), ...(content.parts ?? [])] };
    } else {
      contents.push(content);
    }
  }
  return { systemText, contents };
}

const convertPlain = memoizeContent((message) => toContent(message, false));
const convertSigned = memoizeContent((message) => toContent(message, true));

function toContent(message: Message, requiresThoughtSignatures: boolean): Content | undefined {
  switch (message.role) {
    case 'user':
      return {
        role: 'user',
        parts: message.content.filter((part) => part.text !== '').map((part) => ({ text: part.text })),
      };
    case 'assistant':
      return { role: 'model', parts: modelParts(message, requiresThoughtSignatures) };
    case 'tool':
      return { role: 'user', parts: functionResponses(message) };
    default:
      return undefined;
  }
}

function modelParts(message: AssistantMessage, requiresThoughtSignatures: boolean): Part[] {
  const parts: Part[] = [];
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') parts.push({ text: part.text });
        break;
      case 'thinking': {
        const google = thinkingMetadata(part.providerMetadata);
        if (!google) break;
        if (google.part === 'thought') {
          parts.push({
            text: part.text,
            thought: true,
            ...(part.signature ? { thoughtSignature: part.signature } : {}),
          });
        } else if (part.signature) {
          attachTextSignature(parts, part.signature);
        }
        break;
      }
      case 'tool-call': {
        const signature = part.providerMetadata?.google as { thoughtSignature?: unknown } | undefined;
        parts.push({
          functionCall: { id: part.toolCallId, name: part.toolName, args: asArgs(part.arguments) },
          ...(typeof signature?.thoughtSignature === 'string' ? { thoughtSignature: signature.thoughtSignature } : {}),
        });
        break;
      }
    }
  }
  if (requiresThoughtSignatures) {
    // Only the first call of a turn carries the signature; a turn whose calls have none gets Google's stand-in.
    const calls = parts.filter((part) => part.functionCall);
    const first = calls[0];
    if (first && !calls.some((call) => call.thoughtSignature)) first.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
  }
  return parts;
}

/**
 * A signature that came on the answer's text (streamed, it arrives on the text's last piece, often an
 * empty one) goes back on that text, or alone on an empty text part when the text is not there.
 */
function attachTextSignature(parts: Part[], signature: string): void {
  const last = parts.at(-1);
  if (last && typeof last.text === 'string' && !last.thought && !last.thoughtSignature) {
    last.thoughtSignature = signature;
    return;
  }
  parts.push({ text: '', thoughtSignature: signature });
}

function functionResponses(message: ToolMessage): Part[] {
  return message.content.map((result) => ({
    functionResponse: {
      id: result.toolCallId,
      name: result.toolName,
      // Google's convention: the result under `output`, a failure under `error`.
      response: result.isError ? { error: result.content } : { output: result.content },
    },
  }));
}

function thinkingMetadata(metadata: Record<string, unknown> | undefined): GoogleThinkingMetadata | undefined {
  const google = metadata?.google as Partial<GoogleThinkingMetadata> | undefined;
  return google?.part === 'thought' || google?.part === 'text' ? (google as GoogleThinkingMetadata) : undefined;
}

/** Gemini's `args` is an object; a call whose arguments were not one (a model's mistake) sends an empty one. */
function asArgs(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
