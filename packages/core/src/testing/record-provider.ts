import { appendFileSync, chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AnyLLMProvider, LLMProvider, ModelChunk, ModelRequest, ProviderCapabilities } from '@agentloop/spec';
import { PROVIDER_SPECIFICATION_VERSION } from '@agentloop/spec';
import { batchedProvider } from '../loop/batched-provider.js';
import { cassetteRequest, chunkLine, endLine, errorLine, headerLine, requestLine } from './cassette.js';
import { CassetteError } from './cassette-error.js';

/** Options of `recordProvider`. */
export interface RecordProviderOptions {
  /**
   * Exact texts to redact besides the credentials found by field name and shape (e.g. the API key in use,
   * a customer's name). A replay of the cassette needs the same list.
   */
  secrets?: readonly string[];
}

/**
 * A provider that passes every call on to another one and writes it to a cassette file as it goes: the
 * request (without its signal, secrets redacted), each chunk that answered it (a line per chunk, whatever
 * batches they came in), and how the stream ended,
 * a thrown error included. Replay the file with `replayProvider`. The file is created (with its folder)
 * or emptied when the recorder is made, and each line is written when it happens, so a session that
 * crashes keeps what it did until then.
 */
export class RecordingProvider implements LLMProvider {
  readonly specificationVersion = PROVIDER_SPECIFICATION_VERSION;
  /** The cassette file. */
  readonly file: string;
  readonly #provider: LLMProvider;
  readonly #secrets: readonly string[];
  #turns = 0;

  constructor(provider: AnyLLMProvider, file: string, options: RecordProviderOptions = {}) {
    this.#provider = batchedProvider(provider);
    this.file = file;
    this.#secrets = options.secrets ?? [];
    try {
      mkdirSync(dirname(file), { recursive: true });
      // A cassette holds the conversation (secrets are redacted, the user's words are not): readable by
      // its owner alone, also when it replaces an older file of another mode.
      writeFileSync(file, `${headerLine(this.#provider)}\n`, { mode: 0o600 });
      chmodSync(file, 0o600);
    } catch (error) {
      throw new CassetteError(`recordProvider cannot write the cassette ${file}: ${(error as Error).message}`, {
        code: 'cassette_invalid',
        file,
        cause: error,
      });
    }
  }

  /** The recorded provider's id. */
  get id(): string {
    return this.#provider.id;
  }

  /** The recorded provider's capabilities. */
  get capabilities(): ProviderCapabilities {
    return this.#provider.capabilities;
  }

  /** How many calls were recorded so far. */
  get turns(): number {
    return this.#turns;
  }

  async *stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    const turn = ++this.#turns;
    this.#write(requestLine(turn, cassetteRequest(request, this.#secrets)));
    let outcome: 'finished' | 'abandoned' | 'error' = 'abandoned';
    try {
      for await (const batch of this.#provider.stream(request)) {
        for (const chunk of batch) this.#write(chunkLine(turn, chunk, this.#secrets));
        yield batch;
      }
      outcome = 'finished';
    } catch (error) {
      outcome = 'error';
      this.#write(errorLine(turn, error, this.#secrets));
      throw error;
    } finally {
      // A reader that stops early (a cancel) ends the stream here without an error: the replay then waits
      // for the request's signal, as the real stream would have.
      if (outcome !== 'error') this.#write(endLine(turn, outcome));
    }
  }

  #write(line: string): void {
    appendFileSync(this.file, `${line}\n`);
  }
}

/**
 * Wraps a provider so that every call it makes is written to a cassette file (JSON lines, secrets
 * redacted, keys sorted): `const provider = recordProvider(new AnthropicProvider(…), 'run.cassette.jsonl')`.
 */
export function recordProvider(
  provider: AnyLLMProvider,
  file: string,
  options?: RecordProviderOptions,
): RecordingProvider {
  return new RecordingProvider(provider, file, options);
}
