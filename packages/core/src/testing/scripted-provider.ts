import type {
  FinishReason,
  LLMProvider,
  Message,
  ModelChunk,
  ModelRequest,
  ProviderCapabilities,
  Usage,
} from '@agentloop/spec';
import { AgentloopError, CancelledError } from '@agentloop/spec';

/** A tool call in a script. */
export interface ScriptedToolCall {
  name: string;
  /** An object (sent as JSON) or raw argument text (to script broken JSON). */
  arguments?: unknown;
  /** Default: `call_<step>_<index>`. */
  id?: string;
}

/** One scripted model response. Parts stream in this order: thinking, text, tool calls. */
export interface ScriptedResponse {
  thinking?: string | { text: string; signature?: string };
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default: `tool-calls` when there are calls, else `stop`. */
  finishReason?: FinishReason;
  usage?: Partial<Usage>;
  /** Raw chunks, streamed after the parts above (for retries and other special cases). */
  chunks?: ModelChunk[];
  /** Throws this after streaming the parts (a provider failure). */
  error?: Error;
  /** After streaming the parts, waits until the request is aborted (to test cancel mid-stream). */
  hang?: boolean;
  /** Milliseconds between batches of chunks (uses setTimeout, so fake timers control it). */
  delayMs?: number;
}

/** A script step: a response, or a function of the request that returns one. */
export type ScriptStep = ScriptedResponse | ((request: ModelRequest, index: number) => ScriptedResponse);

/** Options of a ScriptedProvider. */
export interface ScriptedProviderOptions {
  /** Characters per streamed text chunk. Default 8. */
  chunkSize?: number;
  /**
   * Chunks per streamed batch (what one network read would bring). Default 1: each chunk arrives on its
   * own, the slowest stream, which is what a test of cancels and partial output wants.
   */
  batchSize?: number;
  /** Capabilities to report; default: native tools, parallel calls, stop sequences. */
  capabilities?: Partial<ProviderCapabilities>;
  /** Provider id. Default `scripted`. */
  id?: string;
}

/** A request as the ScriptedProvider recorded it (without its signal). */
export type RecordedRequest = Omit<ModelRequest, 'signal'>;

/**
 * A provider that replays a script of responses, streamed in chunks of a chosen size and batches of a
 * chosen count, and records every
 * request. A request with no step left fails with code `script_exhausted`; `assertComplete()` fails on
 * that, and when steps are left over. `request(n)`, `toolNames(n)` and `lastMessage(n)` read the n-th
 * request back for assertions. For tests of agents and of the loop itself.
 */
export class ScriptedProvider implements LLMProvider {
  readonly specificationVersion = 'v2';
  readonly id: string;
  readonly capabilities: ProviderCapabilities;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[] = [];
  readonly #steps: ScriptStep[];
  readonly #chunkSize: number;
  readonly #batchSize: number;
  /** The first request that found no step: the agent turns it into an `error` exit, the test into a failure. */
  #exhausted: AgentloopError | undefined;

  constructor(steps: ScriptStep[], options: ScriptedProviderOptions = {}) {
    this.#steps = [...steps];
    this.#chunkSize = Math.max(1, options.chunkSize ?? 8);
    this.#batchSize = Math.max(1, options.batchSize ?? 1);
    this.id = options.id ?? 'scripted';
    this.capabilities = {
      modelId: 'scripted-model',
      nativeTools: true,
      parallelToolCalls: true,
      stopSequences: true,
      reasoning: true,
      contextWindow: 200_000,
      ...options.capabilities,
    };
  }

  /** Adds steps at the end of the script. */
  push(...steps: ScriptStep[]): this {
    this.#steps.push(...steps);
    return this;
  }

  /** How many steps are left. */
  get remaining(): number {
    return this.#steps.length;
  }

  /**
   * Throws when the script and the requests did not line up: a request found no step (`script_exhausted`,
   * which the agent reports as an `error` exit rather than throwing), or steps were never requested
   * (`script_leftover`). Call it at the end of a test.
   */
  assertComplete(): void {
    if (this.#exhausted) throw this.#exhausted;
    if (this.#steps.length > 0) {
      throw new AgentloopError(
        `ScriptedProvider: ${this.#steps.length} scripted step(s) were never requested (${this.requests.length} request(s) made).`,
        { code: 'script_leftover' },
      );
    }
  }

  /** @deprecated The same as `assertComplete()`. */
  assertDone(): void {
    this.assertComplete();
  }

  /**
   * The request made at `index`: 0 the first, -1 the last (negative counts from the end, as `Array.at`).
   * Throws `script_no_request` when there is no such request, saying how many there were.
   */
  request(index: number): RecordedRequest {
    const request = this.requests.at(index);
    if (!request) {
      throw new AgentloopError(
        `ScriptedProvider: there is no request at index ${index}; ${this.requests.length} request(s) were made.`,
        { code: 'script_no_request' },
      );
    }
    return request;
  }

  /** The names of the tools offered natively in request `index` (default: the last), in order. */
  toolNames(index = -1): string[] {
    return this.request(index).tools.map((tool) => tool.name);
  }

  /**
   * The newest message of request `index` (default: the last): what the loop added just before that call
   * (the user's input, the tool results, a reminder). Throws `script_no_request` when it has no messages.
   */
  lastMessage(index = -1): Message {
    const message = this.request(index).messages.at(-1);
    if (!message) {
      throw new AgentloopError(`ScriptedProvider: the request at index ${index} has no messages.`, {
        code: 'script_no_request',
      });
    }
    return message;
  }

  async *stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    const { signal, ...recorded } = request;
    const index = this.requests.length;
    // A shallow copy is enough: the loop never changes a message once it is in history.
    this.requests.push({ ...recorded, messages: [...recorded.messages], tools: [...recorded.tools] });
    const step = this.#steps.shift();
    if (!step) {
      const error = new AgentloopError(
        `ScriptedProvider: request #${index + 1} has no scripted step (the script had ${index}). Add a step or check why the loop made another call.`,
        { code: 'script_exhausted' },
      );
      this.#exhausted ??= error;
      throw error;
    }
    const response = typeof step === 'function' ? step(recorded as ModelRequest, index) : step;
    const chunks = [...this.#chunks(response, index)];
    for (let start = 0; start < chunks.length; start += this.#batchSize) {
      if (response.delayMs) await sleep(response.delayMs, signal);
      if (signal.aborted) throw new CancelledError(undefined, signal.reason);
      yield chunks.slice(start, start + this.#batchSize);
    }
    if (response.hang) await sleep(Number.POSITIVE_INFINITY, signal);
    if (response.error) throw response.error;
  }

  *#chunks(response: ScriptedResponse, index: number): Iterable<ModelChunk> {
    if (response.thinking !== undefined) {
      const thinking = typeof response.thinking === 'string' ? { text: response.thinking } : response.thinking;
      for (const text of split(thinking.text, this.#chunkSize)) yield { type: 'thinking-delta', text };
      yield { type: 'thinking-end', ...(thinking.signature ? { signature: thinking.signature } : {}) };
    }
    for (const text of split(response.text ?? '', this.#chunkSize)) yield { type: 'text-delta', text };
    const calls = response.toolCalls ?? [];
    for (const [callIndex, call] of calls.entries()) {
      const toolCallId = call.id ?? `call_${index + 1}_${callIndex + 1}`;
      yield { type: 'tool-call-start', toolCallId, toolName: call.name };
      const input = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
      yield { type: 'tool-call', toolCallId, toolName: call.name, input };
    }
    yield* response.chunks ?? [];
    if (response.error || response.hang) return;
    yield { type: 'usage', usage: response.usage ?? { inputTokens: 10, outputTokens: 5 } };
    yield { type: 'finish', reason: response.finishReason ?? (calls.length > 0 ? 'tool-calls' : 'stop') };
  }
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new CancelledError(undefined, signal.reason));
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    function done() {
      signal.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(new CancelledError(undefined, signal.reason));
    }
    signal.addEventListener('abort', abort, { once: true });
  });
}
