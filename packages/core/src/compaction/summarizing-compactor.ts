import type { CompactionRequest, CompactionResult, Compactor } from '@agentloop/memory';
import { DropMiddleCompactor, planCompaction } from '@agentloop/memory';
import { compactionRequest, compactionSummaryMessage, compactionSystemPrompt } from '@agentloop/prompts';
import type { AnyLLMProvider, LLMProvider, Message, ModelRequest, Usage } from '@agentloop/spec';
import { AgentloopError, addUsage, describeThrown, emptyUsage, ProviderError, userMessage } from '@agentloop/spec';
import { abortable } from '../loop/abortable-stream.js';
import { batchedProvider } from '../loop/batched-provider.js';
import { renderTranscript } from './render-transcript.js';

/** Options of a SummarizingCompactor. */
export interface SummarizingCompactorOptions {
  /** The provider that writes the summary, e.g. a cheaper model (`v1` or `v2`). Default: the agent's own provider. */
  provider?: AnyLLMProvider;
  /** The most tokens a summary may have. Default 4,000 (less when the target is small). */
  maxSummaryTokens?: number;
  /** The share of the target kept for the most recent steps, kept whole. Default 0.4. */
  recentShare?: number;
  /** What compacts when the summary fails or does not fit. Default: a DropMiddleCompactor. */
  fallback?: Compactor;
}

/** The most of the summariser's window the transcript takes, leaving room for the prompt and the summary. */
const TRANSCRIPT_SHARE_OF_WINDOW = 0.7;

/**
 * The default compactor: the system messages, the first user message and the most recent steps stay
 * whole, and the older steps between them are replaced by a summary that a model writes from their
 * transcript (the compaction prompt of @agentloop/prompts: the task and its constraints, decisions and
 * why, files, errors, open questions, the state of the work). When the summarising call fails, returns
 * nothing, or its summary would not fit the target, it falls back to its `fallback`, which drops the
 * middle instead, and says why in `fallbackReason`. A cancel is not a failure: it is passed on.
 */
export class SummarizingCompactor implements Compactor {
  readonly #provider: LLMProvider | undefined;
  readonly #maxSummaryTokens: number;
  readonly #recentShare: number;
  readonly #fallback: Compactor;

  constructor(options: SummarizingCompactorOptions = {}) {
    this.#provider = options.provider && batchedProvider(options.provider);
    this.#maxSummaryTokens = options.maxSummaryTokens ?? 4_000;
    this.#recentShare = options.recentShare ?? 0.4;
    if (!(Number.isInteger(this.#maxSummaryTokens) && this.#maxSummaryTokens > 0)) {
      throw new AgentloopError(`maxSummaryTokens must be a whole number above 0, got ${options.maxSummaryTokens}.`, {
        code: 'invalid_option',
      });
    }
    if (!(this.#recentShare >= 0 && this.#recentShare <= 1)) {
      throw new AgentloopError(`recentShare must be between 0 and 1, got ${options.recentShare}.`, {
        code: 'invalid_option',
      });
    }
    this.#fallback = options.fallback ?? new DropMiddleCompactor({ recentShare: this.#recentShare });
  }

  async compact(request: CompactionRequest): Promise<CompactionResult> {
    const { counter, modelId, targetTokens } = request;
    const count = (messages: readonly Message[]) => counter.countMessages(messages, modelId);
    const plan = planCompaction(request.messages, {
      recentTokens: Math.floor(targetTokens * this.#recentShare),
      count,
    });
    if (plan.middle.length === 0) return this.#fallBack(request, 'nothing older than the recent steps to summarise');
    const provider = this.#provider ?? request.provider;
    const summarizer = provider.capabilities.modelId;
    const maxSummaryTokens = Math.max(256, Math.min(this.#maxSummaryTokens, Math.floor(targetTokens / 4)));
    await counter.prepare?.(summarizer);
    const transcript = renderTranscript(plan.middle, {
      maxTokens: Math.floor(provider.capabilities.contextWindow * TRANSCRIPT_SHARE_OF_WINDOW) - maxSummaryTokens,
      countText: (text) => counter.countText(text, summarizer),
    });
    let summary: { text: string; usage: Usage };
    try {
      summary = await summarize(provider, compactionRequest(transcript.text), maxSummaryTokens, request.signal);
    } catch (error) {
      if (request.signal.aborted) throw error;
      return this.#fallBack(request, `the summarising call failed: ${describeThrown(error)}`);
    }
    const spent = {
      usage: summary.usage,
      ...(provider.capabilities.pricing ? { pricing: provider.capabilities.pricing } : {}),
    };
    if (summary.text.trim() === '') return this.#fallBack(request, 'the summary was empty', spent);
    const messages = [
      ...plan.head,
      userMessage(compactionSummaryMessage(summary.text, plan.middle.length)),
      ...plan.recent,
    ];
    const tokens = count(messages);
    // Asked for by hand, a summary that makes the conversation smaller is what was asked for, whatever the
    // target; before a request it must bring the conversation under the target, or the request fails.
    const fits = tokens <= targetTokens || (request.reason === 'manual' && tokens < count(request.messages));
    if (!fits) {
      return this.#fallBack(
        request,
        `the summary did not fit: ${tokens} tokens for a target of ${targetTokens}`,
        spent,
      );
    }
    return {
      messages,
      strategy: 'summary',
      kept: {
        systemMessages: plan.systemMessages,
        firstUserMessage: plan.firstUserMessage,
        recentMessages: plan.recent.length,
      },
      summarizedMessages: plan.middle.length,
      droppedMessages: 0,
      droppedToolResults: 0,
      summary: summary.text.trim(),
      ...spent,
    };
  }

  async #fallBack(
    request: CompactionRequest,
    reason: string,
    spent?: Pick<CompactionResult, 'usage' | 'pricing'>,
  ): Promise<CompactionResult> {
    const { usage: fallbackUsage, pricing: fallbackPricing, ...result } = await this.#fallback.compact(request);
    // The summarising call's tokens were spent all the same: they are reported with the fallback's result.
    const usage =
      spent?.usage && fallbackUsage ? addUsage(spent.usage, fallbackUsage) : (spent?.usage ?? fallbackUsage);
    const pricing = spent ? spent.pricing : fallbackPricing;
    return { ...result, fallbackReason: reason, ...(usage ? { usage } : {}), ...(pricing ? { pricing } : {}) };
  }
}

/** One model call that writes the summary: its text and usage. Throws what the provider threw. */
async function summarize(
  provider: LLMProvider,
  request: string,
  maxTokens: number,
  signal: AbortSignal,
): Promise<{ text: string; usage: Usage }> {
  const modelRequest: ModelRequest = {
    systemPrompt: compactionSystemPrompt(),
    messages: [userMessage(request)],
    tools: [],
    toolChoice: 'none',
    settings: { maxTokens },
    signal,
  };
  let text = '';
  let usage = emptyUsage();
  let finished = false;
  for await (const batch of abortable(provider.stream(modelRequest), signal)) {
    for (const chunk of batch) {
      if (chunk.type === 'text-delta') text += chunk.text;
      else if (chunk.type === 'usage') usage = addUsage(usage, chunk.usage);
      else if (chunk.type === 'retry' && chunk.discardOutput) text = '';
      else if (chunk.type === 'finish') finished = true;
    }
  }
  if (!finished) {
    throw new ProviderError('The summary stream ended without a finish reason.', {
      code: 'stream_broken',
      provider: provider.id,
    });
  }
  return { text, usage };
}
