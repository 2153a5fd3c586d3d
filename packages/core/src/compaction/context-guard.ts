import type { CompactionReason, CompactionResult, Compactor, Memory, TokenCounter } from '@agentloop/memory';
import { MEMORY_SCHEMA_VERSION } from '@agentloop/memory';
import type { LLMProvider, Message, ModelRequest, Usage } from '@agentloop/spec';
import { AgentloopError, describeThrown, findHistoryProblem } from '@agentloop/spec';
import type { AgentEventBus, AgentEventPayloads } from '../events/index.js';
import type { Journal } from '../journal/journal.js';
import type { ContextUsage } from '../tokens/context-usage.js';
import { contextUsage } from '../tokens/context-usage.js';
import {
  type RecordedCompaction,
  recordCompaction,
  recordCompactionFailure,
  restoreCompaction,
} from './recorded-compaction.js';

/** What a ContextGuard works with. */
export interface ContextGuardInit {
  counter: TokenCounter;
  memory: Memory;
  events: AgentEventBus;
  /** The compactor, or a function that makes it at the first compaction. */
  compactor: Compactor | (() => Compactor);
  /** True: compact before a request past the threshold, and after a `context_length` rejection. */
  automatic: boolean;
  /** The share of the window past which a request is compacted. */
  threshold: number;
  /** The window in tokens, overriding the provider's. */
  contextWindow?: number;
}

/** Where a compaction is made: the model call it comes before, the run's signal and journal. */
export interface CompactionAt {
  /** The model call it comes before; absent for `agent.compact()` between runs. */
  iteration?: number;
  signal: AbortSignal;
  /** Records the compactor's result (its summary call), so that a replayed run does not call the model again. */
  journal?: Journal;
}

/** What a request is made of, as far as counting goes. */
export type RequestFrame = Pick<ModelRequest, 'systemPrompt' | 'messages' | 'tools'>;

/**
 * A compaction that happened: the `compaction-end` event, the price of the tokens it spent, and for each
 * message of the conversation before it that the compacted one still holds, the message the memory holds
 * for it now (a restore copies them).
 */
export type CompactionReport = AgentEventPayloads['compaction-end'] &
  Pick<CompactionResult, 'pricing'> & { retained: ReadonlyMap<Message, Message> };

/**
 * Counting starts to load a tokenizer (`TokenCounter.prepare`) only when the quick count is past this
 * share of the threshold: a conversation far from it costs nothing beyond the quick count.
 */
const EXACT_COUNT_FROM = 0.9;
/** A compaction aims at this share of the threshold, so that the next ones are far apart. */
const TARGET_SHARE = 0.5;
/** After a `context_length` rejection the count was wrong: the compaction aims lower. */
const REJECTED_TARGET_SHARE = 0.25;
/** How far the provider's count may be from the estimate's and still be taken to measure the same. */
const MIN_SCALE = 0.5;
const MAX_SCALE = 4;

/**
 * Keeps a conversation within its model's context window: knows how full it is (through the TokenCounter,
 * from each call's reported usage) and compacts the memory before a request that would pass the
 * threshold, after a `context_length` rejection, or on demand. Held by the agent across runs; the loop
 * asks it before each request. When compaction is far off, a request costs one quick count.
 */
export class ContextGuard {
  readonly counter: TokenCounter;
  readonly #memory: Memory;
  readonly #events: AgentEventBus;
  #compactor: Compactor | (() => Compactor);
  readonly #automatic: boolean;
  readonly #threshold: number;
  readonly #contextWindow: number | undefined;
  #last: ContextUsage | undefined;
  /** The system prompt and tools of the last request, for a compaction between runs. */
  #lastSystemPrompt = '';
  #lastTools: RequestFrame['tools'] = [];

  constructor(init: ContextGuardInit) {
    this.counter = init.counter;
    this.#memory = init.memory;
    this.#events = init.events;
    this.#compactor = init.compactor;
    this.#automatic = init.automatic;
    this.#threshold = init.threshold;
    this.#contextWindow = init.contextWindow;
  }

  /** True when the guard compacts on its own (before requests, and after a `context_length` rejection). */
  get automatic(): boolean {
    return this.#automatic;
  }

  /** How full the context was after the last model call; undefined before any. */
  get last(): ContextUsage | undefined {
    return this.#last;
  }

  /** The context window of `provider`'s model, or the agent's override. */
  windowOf(provider: LLMProvider): number {
    return this.#contextWindow ?? provider.capabilities.contextWindow;
  }

  /**
   * Whether `request` comes near the compaction threshold: its quick count (the last report, and an
   * estimate of the messages added since) is past 90% of it. Synchronous and cheap, since it runs before
   * every request; only then does `beforeRequest` count exactly and compact.
   */
  nearThreshold(request: ModelRequest, provider: LLMProvider): boolean {
    // References only: keeping the request would keep its messages and signal alive.
    this.#lastSystemPrompt = request.systemPrompt;
    this.#lastTools = request.tools;
    if (!this.#automatic) return false;
    return this.#count(request, provider) >= this.#limit(provider) * EXACT_COUNT_FROM;
  }

  /**
   * Before a request that `nearThreshold` found near the threshold: counts it exactly (loading a tokenizer
   * where the model has one), and compacts the memory when it would pass the threshold. Returns the
   * compaction's report when it compacted (the request must then be built again from memory).
   */
  async beforeRequest(
    request: ModelRequest,
    provider: LLMProvider,
    at: CompactionAt & { iteration: number },
  ): Promise<CompactionReport | undefined> {
    await this.counter.prepare?.(provider.capabilities.modelId);
    if (this.#count(request, provider) <= this.#limit(provider)) return undefined;
    return this.compact('threshold', provider, { ...at, frame: request });
  }

  #count(request: RequestFrame, provider: LLMProvider): number {
    return this.counter.countRequest({
      modelId: provider.capabilities.modelId,
      systemPrompt: request.systemPrompt,
      messages: request.messages,
      tools: request.tools,
    });
  }

  #limit(provider: LLMProvider): number {
    return Math.floor(this.#threshold * this.windowOf(provider));
  }

  /**
   * Compacts the memory now and reports how it went (also as `compaction-start` and `compaction-end`).
   * When the compactor left the conversation as it was and spent nothing, the report is a no-op:
   * `strategy: 'none'` without `error`, `tokensAfter` equal to `tokensBefore`. It is not counted as a compaction.
   * Throws a `compaction_failed` AgentloopError when the compactor threw or returned a history no provider
   * accepts; the memory is then left as it was. A cancel (the signal) is passed on as it is.
   */
  async compact(
    reason: CompactionReason,
    provider: LLMProvider,
    at: CompactionAt & { frame?: Omit<RequestFrame, 'messages'> },
  ): Promise<CompactionReport> {
    const modelId = provider.capabilities.modelId;
    const frame = at.frame ?? { systemPrompt: this.#lastSystemPrompt, tools: this.#lastTools };
    await this.counter.prepare?.(modelId);
    const before = this.#memory.messages();
    const count = (messages: readonly Message[]) =>
      this.counter.countRequest({
        modelId,
        systemPrompt: frame.systemPrompt,
        messages: messages.filter((message) => message.role !== 'system'),
        tools: frame.tools,
      });
    const tokensBefore = count(before);
    // Compactors size messages with the estimate; the provider's report is the truth. Their ratio (kept
    // within reason) turns the threshold into the estimate's measure, and the estimate after into the
    // provider's, so that a systematic error of the estimate neither stops nor overdoes a compaction.
    const overhead = count([]);
    const estimate = (messages: readonly Message[]) =>
      overhead +
      this.counter.countMessages(
        messages.filter((message) => message.role !== 'system'),
        modelId,
      );
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, tokensBefore / Math.max(1, estimate(before))));
    const windowTokens = this.windowOf(provider);
    const limit = Math.floor((this.#threshold * windowTokens) / scale);
    const where = at.iteration === undefined ? {} : { iteration: at.iteration };
    this.#events.emit({
      type: 'compaction-start',
      ...where,
      reason,
      tokensBefore,
      windowTokens,
      messages: before.length,
    });
    const request = {
      messages: before,
      targetTokens: messageTarget(reason, limit, overhead, estimate(before) - overhead),
      modelId,
      counter: this.counter,
      provider,
      reason,
      signal: at.signal,
    };
    // The compaction as it happened in this process (the error with its cause); a replay reads the record.
    let live: { result: CompactionResult } | { error: unknown } | undefined;
    const compactOnce = async (): Promise<RecordedCompaction> => {
      try {
        const result = await this.#compactorNow().compact(request);
        const problem = findHistoryProblem(result.messages);
        if (problem) throw new Error(`it returned a history no provider accepts: ${problem}`);
        live = { result };
        return recordCompaction(before, result);
      } catch (thrown) {
        const error =
          at.signal.aborted && AgentloopError.isInstance(thrown)
            ? thrown
            : new AgentloopError(`Compaction failed: ${describeThrown(thrown)}. The conversation was left as it was.`, {
                code: 'compaction_failed',
                cause: thrown,
              });
        live = { error };
        return recordCompactionFailure(error);
      }
    };
    // The summary call is the compaction's effect: a replayed run takes the recorded summary, calls no model.
    const recorded = at.journal
      ? await at.journal.step(`compaction:${at.iteration ?? 'between-runs'}:${reason}`, compactOnce)
      : await compactOnce();
    const outcome = live ?? restoreCompaction(before, recorded);
    if ('error' in outcome) {
      const failure = outcome.error;
      this.#events.emit({
        type: 'compaction-end',
        ...where,
        reason,
        strategy: 'none',
        tokensBefore,
        tokensAfter: tokensBefore,
        messagesBefore: before.length,
        messagesAfter: before.length,
        kept: { systemMessages: 0, firstUserMessage: false, recentMessages: before.length },
        summarizedMessages: 0,
        droppedMessages: 0,
        droppedToolResults: 0,
        error: AgentloopError.from(failure),
      });
      throw failure;
    }
    const { result } = outcome;
    const changed = !sameMessages(before, result.messages);
    if (changed) {
      this.#memory.restore({ schemaVersion: MEMORY_SCHEMA_VERSION, messages: result.messages });
    }
    const after = this.#memory.messages();
    // A restore keeps the order and number of the messages it is given.
    const retained = new Map(result.messages.map((message, index) => [message, after[index] ?? message]));
    const report: AgentEventPayloads['compaction-end'] = {
      type: 'compaction-end',
      ...where,
      reason,
      // A compactor that found nothing to take out (a short conversation) and spent nothing did not compact:
      // saying so lets a caller tell the user instead of showing a compaction that changed nothing.
      strategy: changed || result.usage ? result.strategy : 'none',
      tokensBefore,
      tokensAfter: changed ? Math.round(estimate(after) * scale) : tokensBefore,
      messagesBefore: before.length,
      messagesAfter: after.length,
      kept: result.kept,
      summarizedMessages: result.summarizedMessages,
      droppedMessages: result.droppedMessages,
      droppedToolResults: result.droppedToolResults,
      ...(result.fallbackReason ? { fallbackReason: result.fallbackReason } : {}),
      ...(result.usage ? { usage: result.usage } : {}),
    };
    this.#events.emit(report);
    return {
      ...report,
      ...(result.pricing ? { pricing: result.pricing } : {}),
      retained,
    };
  }

  /** The compactor, made at the first compaction when the agent was given a function that makes it. */
  #compactorNow(): Compactor {
    if (typeof this.#compactor === 'function') this.#compactor = this.#compactor();
    return this.#compactor;
  }

  /**
   * After a model call: records its reported usage (for the history `sent` with `request`, and the
   * `answer` kept after it) and returns how full the context is now. Costs nothing more when the provider
   * reported usage.
   */
  afterCall(
    usage: Usage,
    request: RequestFrame,
    sent: readonly Message[],
    answer: Message | undefined,
    provider: LLMProvider,
  ): ContextUsage {
    this.counter.recordUsage(usage, sent, answer);
    const usedTokens =
      usage.inputTokens > 0
        ? usage.inputTokens + usage.outputTokens
        : this.#count(request, provider) +
          (answer ? this.counter.countMessages([answer], provider.capabilities.modelId) : 0);
    this.#last = contextUsage(usedTokens, this.windowOf(provider));
    return this.#last;
  }
}

/**
 * The tokens the compacted messages aim at: well under the threshold, once the system prompt and tools
 * (`overhead`) are counted. Asked for by hand, or after a rejection (the count was too low: the provider
 * knows better), also at most half of what the messages hold now, so that the compaction always shrinks them.
 */
function messageTarget(reason: CompactionReason, limit: number, overhead: number, messageTokens: number): number {
  const share = reason === 'context_length' ? REJECTED_TARGET_SHARE : TARGET_SHARE;
  const target = Math.floor(limit * share) - overhead;
  return Math.max(1, reason === 'threshold' ? target : Math.min(target, Math.floor(messageTokens / 2)));
}

function sameMessages(a: readonly Message[], b: readonly Message[]): boolean {
  return a.length === b.length && a.every((message, index) => message === b[index]);
}
