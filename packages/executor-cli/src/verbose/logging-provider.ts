import type { LLMProvider, ModelChunk, ModelRequest, ProviderCapabilities } from '@agentloop/core';
import { errorFields, formatDuration } from '../render/index.js';
import { describeRequest, ResponseSummary } from './describe-request.js';
import type { VerboseLog } from './verbose-log.js';

/**
 * A provider that logs each request and response of the provider it wraps to the verbose log. It passes
 * every chunk and error through unchanged and reports the wrapped provider's id, contract version and
 * capabilities, so it never changes what the agent does; while the log is off it only forwards.
 */
export class LoggingProvider implements LLMProvider {
  #requests = 0;

  constructor(
    /** The provider that does the work. */
    readonly inner: LLMProvider,
    private readonly log: VerboseLog,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get id(): string {
    return this.inner.id;
  }

  get specificationVersion(): LLMProvider['specificationVersion'] {
    return this.inner.specificationVersion;
  }

  get capabilities(): ProviderCapabilities {
    return this.inner.capabilities;
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelChunk> {
    if (!this.log.enabled) {
      yield* this.inner.stream(request);
      return;
    }
    const label = `model request #${++this.#requests} (${this.inner.id}:${this.inner.capabilities.modelId})`;
    this.log.write(() => describeRequest(label, request));
    const started = this.now();
    const summary = new ResponseSummary();
    let outcome: 'done' | 'failed' | 'stopped' = 'stopped';
    try {
      for await (const chunk of this.inner.stream(request)) {
        summary.add(chunk);
        yield chunk;
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
