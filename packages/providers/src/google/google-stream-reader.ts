import { type ModelChunk, ProviderError, type Usage } from '@agentloop/spec';
import type { GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from '@google/genai';
import { type ErrorSource, invalidResponse, isJsonObject, jsonKind } from '../errors/index.js';
import { mapGoogleFinishReason } from './map-google-finish-reason.js';

const NONE: readonly ModelChunk[] = [];

/**
 * Turns the responses of one `streamGenerateContent` call (or the one response of `generateContent`) into
 * ModelChunks. Gemini sends whole parts, not deltas of them, and its usage is cumulative: the last
 * response's usage and `finish` come when a candidate's `finishReason` (or a `promptFeedback.blockReason`,
 * when the prompt itself was blocked) arrives; a stream that ends before is broken.
 *
 * Thought signatures stay with the part they came on: a function call's in its `providerMetadata.google`,
 * a thought's and the answer text's as a `thinking-end` whose `providerMetadata.google.part` says which
 * (see toGoogleContents, which sends them back).
 */
export class GoogleStreamReader {
  private thinkingOpen = false;
  private calledTools = false;
  private usage: GenerateContentResponseUsageMetadata | undefined;
  private finishReason: string | undefined;
  private blockReason: string | undefined;
  private finished = false;

  constructor(
    private readonly source: ErrorSource,
    /** Ids for calls the API sent without one (the Gemini API leaves them out for older models). */
    private readonly generateId: () => string,
  ) {}

  /** Whether the answer is complete: nothing after it matters, so the caller may stop reading. */
  get complete(): boolean {
    return this.finishReason !== undefined || this.blockReason !== undefined;
  }

  /** The chunks one response produces; throws `invalid_response` for one that is not the API's shape. */
  read(response: GenerateContentResponse): readonly ModelChunk[] {
    if (this.complete) return NONE;
    const value: unknown = response;
    if (!isJsonObject(value)) throw invalidResponse(this.source, `a streamed response is ${jsonKind(value)}`);
    if (response.usageMetadata) this.usage = response.usageMetadata;
    const { candidates } = response;
    if (candidates !== undefined && !Array.isArray(candidates)) {
      throw invalidResponse(this.source, `its "candidates" is ${jsonKind(candidates)}, not a list`);
    }
    const chunks: ModelChunk[] = [];
    const candidate = candidates?.[0];
    if (candidate !== undefined) {
      const parts = candidate?.content?.parts;
      if (parts !== undefined && !Array.isArray(parts)) {
        throw invalidResponse(this.source, `its "candidates[0].content.parts" is ${jsonKind(parts)}, not a list`);
      }
      for (const part of parts ?? []) this.readPart(part, chunks);
      if (candidate.finishReason) this.finishReason = String(candidate.finishReason);
    }
    const blockReason = response.promptFeedback?.blockReason;
    if (blockReason) this.blockReason = String(blockReason);
    return chunks.length === 0 ? NONE : chunks;
  }

  /** Call when the responses ended: usage and `finish`, or a `stream_broken` error if they ended early. */
  finish(): readonly ModelChunk[] {
    if (this.finished) return NONE;
    if (!this.complete) {
      throw new ProviderError('google: the stream ended before the response was complete', {
        code: 'stream_broken',
        provider: this.source.provider,
      });
    }
    this.finished = true;
    const chunks: ModelChunk[] = [];
    this.closeThinking(chunks);
    chunks.push({ type: 'usage', usage: toUsage(this.usage) });
    if (this.blockReason !== undefined) {
      chunks.push({ type: 'finish', reason: 'content-filter', rawReason: this.blockReason });
    } else {
      const reason = this.finishReason as string;
      chunks.push({ type: 'finish', reason: mapGoogleFinishReason(reason, this.calledTools), rawReason: reason });
    }
    return chunks;
  }

  private readPart(part: Part, chunks: ModelChunk[]): void {
    const value: unknown = part;
    if (!isJsonObject(value)) throw invalidResponse(this.source, `a part of its content is ${jsonKind(value)}`);
    const signature = part.thoughtSignature || undefined;
    if (part.thought === true) {
      this.thinkingOpen = true;
      if (part.text) chunks.push({ type: 'thinking-delta', text: part.text });
      if (signature) {
        this.thinkingOpen = false;
        chunks.push({ type: 'thinking-end', signature, providerMetadata: { google: { part: 'thought' } } });
      }
      return;
    }
    this.closeThinking(chunks);
    if (part.functionCall) {
      const call = part.functionCall;
      const toolCallId = call.id || this.generateId();
      this.calledTools = true;
      const toolName = call.name ?? '';
      chunks.push({ type: 'tool-call-start', toolCallId, toolName });
      chunks.push({
        type: 'tool-call',
        toolCallId,
        toolName,
        input: JSON.stringify(call.args ?? {}),
        ...(signature ? { providerMetadata: { google: { thoughtSignature: signature } } } : {}),
      });
      return;
    }
    if (typeof part.text === 'string') {
      if (part.text !== '') chunks.push({ type: 'text-delta', text: part.text });
      if (signature) chunks.push({ type: 'thinking-end', signature, providerMetadata: { google: { part: 'text' } } });
    }
    // Other parts (code execution, inline data) come from tools this provider does not offer.
  }

  private closeThinking(chunks: ModelChunk[]): void {
    if (!this.thinkingOpen) return;
    this.thinkingOpen = false;
    chunks.push({ type: 'thinking-end', providerMetadata: { google: { part: 'thought' } } });
  }
}

function toUsage(usage: GenerateContentResponseUsageMetadata | undefined): Partial<Usage> {
  const thoughts = usage?.thoughtsTokenCount ?? 0;
  return {
    // The prompt count includes cached tokens, as the contract's input does; a tool's prompt is input too.
    inputTokens: (usage?.promptTokenCount ?? 0) + (usage?.toolUsePromptTokenCount ?? 0),
    // Gemini counts thinking apart from the answer; the contract's output includes it.
    outputTokens: (usage?.candidatesTokenCount ?? 0) + thoughts,
    cacheReadTokens: usage?.cachedContentTokenCount ?? 0,
    cacheWriteTokens: 0,
    reasoningTokens: thoughts,
  };
}
