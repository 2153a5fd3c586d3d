import type { AnyLLMProvider, LLMProvider, LLMProviderV1, ModelChunk, ModelRequest } from '@agentloop/spec';

/**
 * The provider as one of the current contract (`v2`, chunks in batches): a `v2` provider as it is, a `v1`
 * provider (one chunk at a time) wrapped so that each of its chunks is a batch of its own. Its `id` and
 * `capabilities` are the wrapped provider's, read on each use.
 */
export function batchedProvider(provider: AnyLLMProvider): LLMProvider {
  return provider.specificationVersion === 'v1' ? new V1ProviderAdapter(provider) : provider;
}

/** A `v1` provider behind the `v2` contract. */
class V1ProviderAdapter implements LLMProvider {
  readonly specificationVersion = 'v2';

  constructor(private readonly inner: LLMProviderV1) {}

  get id(): string {
    return this.inner.id;
  }

  get capabilities(): LLMProvider['capabilities'] {
    return this.inner.capabilities;
  }

  stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    const chunks = this.inner.stream(request);
    return {
      [Symbol.asyncIterator]: () => {
        const iterator = chunks[Symbol.asyncIterator]();
        const wrap = (result: IteratorResult<ModelChunk>): IteratorResult<readonly ModelChunk[]> =>
          result.done ? { done: true, value: undefined } : { done: false, value: [result.value] };
        return {
          next: () => iterator.next().then(wrap),
          return: async () => {
            await iterator.return?.();
            return { done: true, value: undefined };
          },
        };
      },
    };
  }
}
