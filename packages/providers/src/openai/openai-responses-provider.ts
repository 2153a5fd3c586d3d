import type { LLMProvider, ModelChunk, ModelRequest, ProviderCapabilities } from '@agentloop/spec';
import type OpenAI from 'openai';
import type { ResponseCreateParamsBase } from 'openai/resources/responses/responses';
import type { ErrorSource } from '../errors/index.js';
import { findModelOverride, type ModelInfo, providerCapabilities, resolveModelInfo } from '../models/index.js';
import type { AttemptEvents, OpenedAttempt } from '../streaming/index.js';
import { createOpenAIClient } from './create-openai-client.js';
import type { OpenAIProviderOptions } from './openai-provider-options.js';
import { readJsonBody } from './read-json-body.js';
import { buildResponsesRequest } from './responses/build-responses-request.js';
import { checkResponseBody } from './responses/check-response-body.js';
import { responseEvents } from './responses/response-events.js';
import { ResponsesStreamReader } from './responses/responses-stream-reader.js';
import type { WireResponseEvent } from './responses/wire-response-event.js';
import { streamOpenAICall } from './stream-openai-call.js';

/**
 * A model behind OpenAI's Responses API, streaming, stateless (`store: false`): reasoning summaries stream
 * as thinking and the encrypted reasoning travels in the conversation; function calls, usage,
 * `response.incomplete` and `response.failed` are mapped; failures are retried here. The API has no stop
 * sequences: a request's are not sent, and `capabilities.stopSequences` is false whatever `modelInfo` says.
 */
export class OpenAIResponsesProvider implements LLMProvider {
  readonly specificationVersion = 'v2';
  readonly id: 'openai' | 'openai-compatible';
  readonly capabilities: ProviderCapabilities;
  private readonly client: OpenAI;
  private readonly compatible: boolean;
  private readonly errorSource: ErrorSource;
  private readonly modelInfo: ModelInfo;
  /** What the request builder goes by: modelInfo, with the built-in apply_patch only where it is known to work. */
  private readonly requestModelInfo: ModelInfo;

  constructor(private readonly options: OpenAIProviderOptions) {
    const setup = createOpenAIClient(options);
    this.client = setup.client;
    this.compatible = setup.compatible;
    this.id = setup.compatible ? 'openai-compatible' : 'openai';
    this.errorSource = { provider: this.id, model: options.model, baseURL: setup.baseURL, keyless: setup.keyless };
    this.modelInfo = resolveModelInfo(options.model, options);
    // The Responses API has no stop sequences (no `stop` parameter), so the request's are dropped.
    this.capabilities = { ...providerCapabilities(options.model, this.modelInfo), stopSequences: false };
    // The model table speaks of OpenAI's own API. A compatible server (a router, a local server) may not
    // know the built-in apply_patch tool, so there it is offered only where the app's corrections say so.
    const nativeApplyPatch = setup.compatible
      ? { ...findModelOverride(options.model, options.models), ...options.modelInfo }.nativeApplyPatch === true
      : this.modelInfo.nativeApplyPatch === true;
    this.requestModelInfo = { ...this.modelInfo, nativeApplyPatch };
  }

  stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    const body = buildResponsesRequest(request, { model: this.options.model, modelInfo: this.requestModelInfo });
    return streamOpenAICall({
      provider: this.id,
      source: this.errorSource,
      compatible: this.compatible,
      options: this.options,
      request,
      open: (signal) => this.open(body, signal),
    });
  }

  private async open(body: ResponseCreateParamsBase, signal: AbortSignal): Promise<OpenedAttempt<WireResponseEvent>> {
    const reader = new ResponsesStreamReader(this.id);
    if (this.options.streaming === false) {
      // The raw body: the SDK's own reading of it (its `output_text`) throws a bare TypeError on a
      // malformed one, before checkResponseBody could say what is wrong.
      const response = await this.client.responses.create({ ...body, stream: false }, { signal }).asResponse();
      const json = await readJsonBody(response, this.errorSource);
      return { events: responseEvents(checkResponseBody(json, this.errorSource)), reader };
    }
    const stream = await this.client.responses.create({ ...body, stream: true }, { signal });
    return { events: stream as AttemptEvents<WireResponseEvent>, reader };
  }
}
