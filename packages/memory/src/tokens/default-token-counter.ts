import type { Message, ToolDefinition, Usage } from '@agentloop/spec';
import { AgentloopError } from '@agentloop/spec';
import type { CountText } from './count-message-tokens.js';
import {
  countMessageTokens,
  countToolTokens,
  DEFAULT_CHARS_PER_TOKEN,
  estimateTextTokens,
} from './count-message-tokens.js';
import type { TokenCounter, TokenCountRequest } from './token-counter.js';
import type { Tokenizer } from './tokenizer.js';
import { loadTokenizer, openAIEncodingOf } from './tokenizer.js';

/** Options of a DefaultTokenCounter. */
export interface DefaultTokenCounterOptions {
  /** Characters per token of the estimate, for models without a tokenizer. Default 3.5. */
  charsPerToken?: number;
  /**
   * Loads the exact tokenizer of a model, or resolves undefined when its family has none. Default:
   * gpt-tokenizer for OpenAI models, none for others. `false` estimates every model.
   */
  loadTokenizer?: ((modelId: string) => Promise<Tokenizer | undefined>) | false;
}

/** A provider's report, and the history it covers: its length and its first and last messages. */
interface Report {
  tokens: number;
  length: number;
  first: Message | undefined;
  last: Message | undefined;
}

/** The estimate of the last history counted without a report: its tokens, its length, its first and last messages. */
interface MessageCount {
  countText: CountText;
  tokens: number;
  length: number;
  first: Message | undefined;
  last: Message | undefined;
}

/**
 * The default TokenCounter. The last model call's reported input and output tokens are the truth for the
 * history they covered; what was added after them is estimated, with the model family's tokenizer once
 * `prepare` loaded it (OpenAI models, through gpt-tokenizer) and `charsPerToken` characters a token
 * otherwise. Recording a report and counting what follows it cost a walk over the new messages only; so
 * does counting a history that grew since the last count, when the provider reports no usage.
 */
export class DefaultTokenCounter implements TokenCounter {
  readonly #charsPerToken: number;
  readonly #load: ((modelId: string) => Promise<Tokenizer | undefined>) | undefined;
  readonly #estimate: CountText;
  /** Exact counts by the family key of the models they count, once loaded; undefined: the family has none. */
  #tokenizers: Map<string, CountText | undefined> | undefined;
  #report: Report | undefined;
  #messageCount: MessageCount | undefined;

  constructor(options: DefaultTokenCounterOptions = {}) {
    const charsPerToken = options.charsPerToken ?? DEFAULT_CHARS_PER_TOKEN;
    if (!(Number.isFinite(charsPerToken) && charsPerToken > 0)) {
      throw new AgentloopError(`charsPerToken must be a positive number, got ${charsPerToken}.`, {
        code: 'invalid_option',
      });
    }
    this.#charsPerToken = charsPerToken;
    this.#load = options.loadTokenizer === false ? undefined : (options.loadTokenizer ?? loadTokenizer);
    this.#estimate = (text) => estimateTextTokens(text, this.#charsPerToken);
  }

  recordUsage(usage: Usage, sent: readonly Message[], answer?: Message): void {
    // A call without reported input tokens (a failed call, a server that reports none) changes nothing:
    // the last report, if any, still covers the start of the history.
    if (!(usage.inputTokens > 0)) return;
    this.#report = {
      tokens: usage.inputTokens + usage.outputTokens,
      length: sent.length + (answer ? 1 : 0),
      first: sent[0] ?? answer,
      last: answer ?? sent.at(-1),
    };
  }

  countRequest(request: TokenCountRequest): number {
    const countText = this.#counterFor(request.modelId);
    const { messages } = request;
    const report = this.#report;
    // The same objects at both ends of the reported history: it was only added to since (the Memory
    // contract never changes an appended message; a rewrite replaces them, and is counted afresh).
    if (
      report &&
      report.length > 0 &&
      messages.length >= report.length &&
      messages[0] === report.first &&
      messages[report.length - 1] === report.last
    ) {
      return report.tokens + countMessageTokens(messages, countText, report.length);
    }
    return (
      countText(request.systemPrompt) +
      this.#toolTokens(request.tools ?? [], countText) +
      this.#messageTokens(messages, countText)
    );
  }

  countMessages(messages: readonly Message[], modelId: string): number {
    return countMessageTokens(messages, this.#counterFor(modelId));
  }

  countText(text: string, modelId: string): number {
    return this.#counterFor(modelId)(text);
  }

  async prepare(modelId: string): Promise<void> {
    const family = familyOf(modelId);
    if (!this.#load || this.#tokenizers?.has(family)) return;
    let tokenizer: Tokenizer | undefined;
    try {
      tokenizer = await this.#load(modelId);
    } catch {
      // Without its tokenizer the model is estimated, as any other: a count is never worth a failed run.
      tokenizer = undefined;
    }
    this.#tokenizers ??= new Map();
    this.#tokenizers.set(family, tokenizer ? (text) => tokenizer.countTokens(text) : undefined);
  }

  #counterFor(modelId: string): CountText {
    // Nothing loaded yet, the common case: no need to work out the model's family.
    if (!this.#tokenizers) return this.#estimate;
    return this.#tokenizers.get(familyOf(modelId)) ?? this.#estimate;
  }

  // Without a report (a server that reports no usage) every request would be counted whole, each longer
  // than the last: a history that only grew since the last count (the same objects at both ends of what
  // was counted, as for a report) adds the estimate of its new messages to the last one.
  #messageTokens(messages: readonly Message[], countText: CountText): number {
    const last = this.#messageCount;
    const grew =
      last !== undefined &&
      last.countText === countText &&
      last.length > 0 &&
      messages.length >= last.length &&
      messages[0] === last.first &&
      messages[last.length - 1] === last.last;
    const tokens = grew
      ? last.tokens + countMessageTokens(messages, countText, last.length)
      : countMessageTokens(messages, countText);
    this.#messageCount = { countText, tokens, length: messages.length, first: messages[0], last: messages.at(-1) };
    return tokens;
  }

  // The tool list is the same array from request to request (the registry keeps it), so it is counted once.
  #toolCount: { tools: readonly ToolDefinition[]; countText: CountText; tokens: number } | undefined;

  #toolTokens(tools: readonly ToolDefinition[], countText: CountText): number {
    if (tools.length === 0) return 0;
    const cached = this.#toolCount;
    if (cached?.tools === tools && cached.countText === countText) return cached.tokens;
    const tokens = countToolTokens(tools, countText);
    this.#toolCount = { tools, countText, tokens };
    return tokens;
  }
}

/** Models that share a tokenizer share a key: the OpenAI encoding, or the model id itself. */
function familyOf(modelId: string): string {
  return openAIEncodingOf(modelId) ?? modelId;
}
