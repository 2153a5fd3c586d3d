import type { LLMProvider, ModelChunk, ModelRequest, ProviderCapabilities } from '@agentloop/core';
import { errorFields, formatDuration } from '../render/index.js';
import { describeRequest, ResponseSummary } from './describe-request.js';
import type { VerboseLog } from './verbose-log.js';

/** How a LoggingProvider names the provider and reads the clock. */
export interface LoggingProviderOptions {
  /**
   * What each log line calls the provider, e.g. `openai-responses:gpt-5, Responses API`. Default: the
   * wrapped provider's `id:modelId`, which cannot tell Chat Completions from Responses, nor OpenAI from a
   * server that speaks its API when the caller said which it is.
   */
  label?: string;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/**
 * A provider that logs each request and response of the provider it wraps to the verbose log. It passes
 * every batch of chunks and error through unchanged and reports the wrapped provider's id, contract version and
 * capabilities, so it never changes what the agent does; while the log is off it only forwards.
 */
export class LoggingProvider implements LLMProvider {
  #requests = 0;
  private readonly now: () => number;
  private readonly label: string | undefined;

  constructor(
    /** The provider that does the work. */
    readonly inner: LLMProvider,
    private readonly log: VerboseLog,
    /** The options, or the clock alone (as before the options were added). */
    options: LoggingProviderOptions | (() => number) = {},
  ) {
    const { now, label } = typeof options === 'function' ? { now: options, label: undefined } : options;
    this.now = now ?? (() => performance.now());
    this.label = label;
  }

  get id(): string {
    return this.inner.id;
  }

  get specificationVersion(): LLMProvider['specificationVersion'] {
    return this.inner.specificationVersion;
  }

  get capabilities(): ProviderCapabilities {
    return this.inner.capabilities;
  }

  stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    // The log off, the wrapped stream itself: a generator here would cost a hop on every batch.
    return this.log.enabled ? this.#logged(request) : this.inner.stream(request);
  }

  async *#logged(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    const provider = this.label ?? `${this.inner.id}:${this.inner.capabilities.modelId}`;
    const label = `model request #${++this.#requests} (${provider})`;
    this.log.write(() => describeRequest(label, request));
    const started = this.now();
    const summary = new ResponseSummary();
    let outcome: 'done' | 'failed' | 'stopped' = 'stopped';
    try {
      for await (const batch of this.inner.stream(request)) {
        for (const chunk of batch) summary.add(chunk);
        yield batch;
      }
      outcome = 'done';
    } catch (error) {
      outcome = 'failed';
      const failure = errorFields(error);
      this.log.write(() => [
        `← ${label} failed after ${formatDuration(this.now() - started)}: ${failure.code}: ${failure.message}`,
      ]);
      throw error;
    } finally {
      if (outcome === 'done') this.log.write(() => summary.lines(label, this.now() - started));
      if (outcome === 'stopped')
        this.log.write(() => [`← ${label} stopped by the agent after ${formatDuration(this.now() - started)}`]);
    }
  }
}
