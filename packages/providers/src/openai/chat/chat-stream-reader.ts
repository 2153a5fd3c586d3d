import { type ModelChunk, ProviderError } from '@agentloop/spec';
import { mapChatFinishReason } from './map-chat-finish-reason.js';
import type { WireChatChunk, WireChatToolCall, WireChatUsage } from './wire-chat-chunk.js';

interface ToolCallState {
  id: string;
  name: string;
  arguments: string;
  started: boolean;
  emitted: boolean;
}

/** What the reader needs besides the chunks. */
export interface ChatStreamReaderSettings {
  /** The provider's id, for errors. */
  provider: string;
  /** Makes an id for a call that came without a usable one. */
  generateId: () => string;
  /** Whether a missing finish_reason means the response was cut off (always, for a stream). */
  requireFinishReason: boolean;
}

const NONE: readonly ModelChunk[] = [];

// Ids that compatible servers send which are not unique across a conversation ("0", "1", "").
const UNUSABLE_ID = /^\d*$/;

/**
 * Turns the chunks of one Chat Completions stream into ModelChunks. Tool calls arrive in pieces keyed by
 * `index` (their id and name first, then the arguments); they are emitted complete once `finish_reason`
 * arrives, or when the stream ends. Usage and `finish` come at the end.
 */
export class ChatStreamReader {
  private readonly calls = new Map<number, ToolCallState>();
  private readonly usedIds = new Set<string>();
  private thinking = false;
  private refused = false;
  private finishReason: string | undefined;
  private usage: WireChatUsage | undefined;
  private usageAfterFinish = false;

  constructor(private readonly settings: ChatStreamReaderSettings) {}

  /**
   * Whether the answer is complete: its `finish_reason` came, and usage with it or after it. Usage is the
   * last chunk of a stream that asked for it, so the caller may stop reading there: the SDK reads on after
   * `[DONE]` until the server closes the connection, and a server or proxy that keeps it open would hold
   * the step.
   */
  get complete(): boolean {
    return this.usageAfterFinish;
  }

  /** The chunks one server chunk produces. */
  read(chunk: WireChatChunk): readonly ModelChunk[] {
    const out = this.readChoice(chunk);
    if (chunk.usage) {
      this.usage = chunk.usage;
      if (this.finishReason !== undefined) this.usageAfterFinish = true;
    }
    return out;
  }

  private readChoice(chunk: WireChatChunk): readonly ModelChunk[] {
    const choices = chunk.choices;
    if (!choices || choices.length === 0) return NONE;
    const choice = choices.length === 1 ? choices[0] : choices.find((candidate) => (candidate.index ?? 0) === 0);
    if (!choice) return NONE;
    const out: ModelChunk[] = [];
    const delta = choice.delta;
    if (delta) {
      const reasoning = delta.reasoning_content || delta.reasoning;
      if (reasoning) {
        this.thinking = true;
        out.push({ type: 'thinking-delta', text: reasoning });
      }
      if (delta.content) {
        this.endThinking(out);
        out.push({ type: 'text-delta', text: delta.content });
      }
      if (delta.refusal) {
        this.endThinking(out);
        this.refused = true;
        out.push({ type: 'text-delta', text: delta.refusal });
      }
      if (delta.tool_calls) {
        this.endThinking(out);
        for (const [position, piece] of delta.tool_calls.entries()) this.addToolCallPiece(piece, position, out);
      }
    }
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      this.endThinking(out);
      this.emitToolCalls(out);
    }
    return out;
  }

  /** Call when the stream ended: the chunks still owed, or a `stream_broken` error if it was cut. */
  finish(): readonly ModelChunk[] {
    if (this.finishReason === undefined && this.settings.requireFinishReason) {
      throw new ProviderError(`${this.settings.provider}: the stream ended before the response was complete`, {
        code: 'stream_broken',
        provider: this.settings.provider,
      });
    }
    const out: ModelChunk[] = [];
    this.endThinking(out);
    this.emitToolCalls(out);
    if (this.usage) out.push({ type: 'usage', usage: toUsage(this.usage) });
    out.push({ type: 'finish', reason: this.reason(), rawReason: this.finishReason });
    return out;
  }

  private reason() {
    if (this.refused) return 'refusal';
    // Some servers (Ollama) answer tool calls with finish_reason "stop" (or, not streamed, with none).
    if (this.calls.size > 0 && (this.finishReason === undefined || this.finishReason === 'stop')) return 'tool-calls';
    return this.finishReason === undefined ? 'stop' : mapChatFinishReason(this.finishReason);
  }

  private addToolCallPiece(piece: WireChatToolCall, position: number, out: ModelChunk[]): void {
    // Without an index (some compatible servers), a piece that names a tool starts a new call.
    const key = piece.index ?? (piece.function?.name ? this.calls.size : Math.max(this.calls.size - 1, position));
    let call = this.calls.get(key);
    if (!call) {
      call = { id: '', name: '', arguments: '', started: false, emitted: false };
      this.calls.set(key, call);
    }
    if (piece.id && call.id === '' && !UNUSABLE_ID.test(piece.id) && !this.usedIds.has(piece.id)) call.id = piece.id;
    const fn = piece.function;
    if (fn?.name && call.name === '') call.name = fn.name;
    const args = fn?.arguments;
    // Some servers send the arguments whole, as an object.
    if (typeof args === 'string') call.arguments += args;
    else if (args && typeof args === 'object') call.arguments = argumentsText(args);
    if (!call.started && call.name !== '') {
      if (call.id === '') call.id = this.settings.generateId();
      this.usedIds.add(call.id);
      call.started = true;
      out.push({ type: 'tool-call-start', toolCallId: call.id, toolName: call.name });
    }
  }

  private emitToolCalls(out: ModelChunk[]): void {
    for (const call of this.calls.values()) {
      if (call.emitted || call.name === '') continue;
      call.emitted = true;
      out.push({
        type: 'tool-call',
        toolCallId: call.id,
        toolName: call.name,
        input: call.arguments.trim() === '' ? '{}' : call.arguments,
      });
    }
  }

  private endThinking(out: ModelChunk[]): void {
    if (!this.thinking) return;
    this.thinking = false;
    out.push({ type: 'thinking-end' });
  }
}

function toUsage(usage: WireChatUsage) {
  return {
    // prompt_tokens already includes the cached tokens.
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    cacheReadTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** Deeper than any tool accepts (the loop refuses arguments past 64 levels), shallow enough to serialise. */
const MAX_OBJECT_ARGUMENT_DEPTH = 256;

/**
 * The JSON text of arguments a server sent as an object. Nesting too deep for JSON.stringify (a hostile or
 * broken server) is cut at MAX_OBJECT_ARGUMENT_DEPTH, so that the loop refuses the call as too deep and
 * tells the model, instead of the whole response failing here.
 */
function argumentsText(args: object): string {
  try {
    return JSON.stringify(args);
  } catch {
    return JSON.stringify(clipDepth(args, MAX_OBJECT_ARGUMENT_DEPTH));
  }
}

function clipDepth(value: unknown, levels: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (levels === 0) return {};
  if (Array.isArray(value)) return value.map((item) => clipDepth(item, levels - 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clipDepth(item, levels - 1)]));
}
