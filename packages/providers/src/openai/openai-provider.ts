import type { LLMProvider, ModelChunk, ModelRequest, ProviderCapabilities } from '@agentloop/spec';
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import type { ErrorSource } from '../errors/index.js';
import { type ModelInfo, providerCapabilities, resolveModelInfo } from '../models/index.js';
import type { AttemptEvents, OpenedAttempt } from '../streaming/index.js';
import { buildChatRequest } from './chat/build-chat-request.js';
import { chatCompletionChunk } from './chat/chat-completion-chunk.js';
import { ChatStreamReader } from './chat/chat-stream-reader.js';
import { checkChatCompletion } from './chat/check-chat-completion.js';
import type { WireChatChunk } from './chat/wire-chat-chunk.js';
import { createOpenAIClient, sendsReasoningByDefault } from './create-openai-client.js';
import type { OpenAIProviderOptions } from './openai-provider-options.js';
import { streamOpenAICall } from './stream-openai-call.js';

/**
 * A model behind the Chat Completions API: OpenAI's, or any OpenAI-compatible server through `baseURL`
 * (then its id is `openai-compatible` and no API key is needed). Streams with usage, assembles tool calls
 * streamed by index, reads `reasoning_content` / `reasoning` as thinking (and sends it back as
 * `reasoning_content` where `sendReasoning` says so), tolerates missing or repeated tool-call ids, a missing
 * `finish_reason` and arguments sent as objects, and retries failures itself. OpenAI gets at most four stop
 * sequences, the most its API takes.
 */
export class OpenAIProvider implements LLMProvider {
  readonly specificationVersion = 'v2';
  readonly id: 'openai' | 'openai-compatible';
  readonly capabilities: ProviderCapabilities;
  private readonly client: OpenAI;
  private readonly compatible: boolean;
  private readonly errorSource: ErrorSource;
  private readonly sendReasoning: boolean;
  private readonly generateId: () => string;
  private readonly modelInfo: ModelInfo;

  constructor(private readonly options: OpenAIProviderOptions) {
    const setup = createOpenAIClient(options);
    this.client = setup.client;
    this.compatible = setup.compatible;
    this.sendReasoning = options.sendReasoning ?? sendsReasoningByDefault(setup);
    this.generateId = setup.generateId;
    this.id = setup.compatible ? 'openai-compatible' : 'openai';
    this.errorSource = { provider: this.id, model: options.model, baseURL: setup.baseURL, keyless: setup.keyless };
    this.modelInfo = resolveModelInfo(options.model, options);
    this.capabilities = providerCapabilities(options.model, this.modelInfo);
  }

  stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    const body = buildChatRequest(request, {
      model: this.options.model,
      modelInfo: this.modelInfo,
      compatible: this.compatible,
      sendReasoning: this.sendReasoning,
    });
    return streamOpenAICall({
      provider: this.id,
      source: this.errorSource,
      compatible: this.compatible,
      options: this.options,
      request,
      open: (signal) => this.open(body, signal),
    });
  }

  private async open(body: ChatCompletionCreateParamsBase, signal: AbortSignal): Promise<OpenedAttempt<WireChatChunk>> {
    const reader = new ChatStreamReader({
      provider: this.id,
      generateId: this.generateId,
      // A stream that ends without a finish_reason was cut, whatever the server: its last tool call may
      // hold half its arguments. A non-streamed body is whole once it parses.
      requireFinishReason: this.options.streaming !== false,
    });
    if (this.options.streaming === false) {
      const completion = await this.client.chat.completions.create({ ...body, stream: false }, { signal });
      return { events: [chatCompletionChunk(checkChatCompletion(completion, this.errorSource))], reader };
    }
    const stream = await this.client.chat.completions.create(
      { ...body, stream: true, stream_options: { include_usage: true } },
      { signal },
    );
    return { events: stream as AttemptEvents<WireChatChunk>, reader };
  }
}
