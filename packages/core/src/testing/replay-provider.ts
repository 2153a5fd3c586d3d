import { readFileSync } from 'node:fs';
import type { LLMProvider, ModelChunk, ModelRequest, ProviderCapabilities } from '@agentloop/spec';
import { CancelledError, PROVIDER_SPECIFICATION_VERSION } from '@agentloop/spec';
import { type CassetteTurn, cassetteRequest, parseCassette, replayedChunk, replayedError } from './cassette.js';
import { CassetteError } from './cassette-error.js';
import { describeDifference, firstDifference } from './first-difference.js';
import { REDACTED } from './redact-secrets.js';

/** Options of `replayProvider`. */
export interface ReplayProviderOptions {
  /** The `secrets` the cassette was recorded with, so that a request redacts and compares alike. */
  secrets?: readonly string[];
}

/**
 * A provider that plays a cassette back: each request must match the recorded one of its turn (every
 * field but the signal), and is answered with the recorded chunks and ending, a recorded error thrown
 * again as the same kind of error (a ProviderError with its code, status and retry data). A request that
 * differs fails with a `cassette_mismatch` CassetteError that shows the first difference; one past the
 * last turn fails with `cassette_exhausted`. The agent turns those into an `error` exit, so a test calls
 * `assertComplete()` at its end: it throws the first failure, or `cassette_leftover` for turns never
 * requested. Its `id` and `capabilities` are the recorded provider's, so `auto` picks the same protocol.
 */
export class ReplayProvider implements LLMProvider {
  readonly specificationVersion = PROVIDER_SPECIFICATION_VERSION;
  readonly id: string;
  readonly capabilities: ProviderCapabilities;
  /** The cassette file. */
  readonly file: string;
  readonly #turns: readonly CassetteTurn[];
  readonly #secrets: readonly string[];
  #next = 0;
  #failure: CassetteError | undefined;

  constructor(file: string, options: ReplayProviderOptions = {}) {
    this.file = file;
    this.#secrets = options.secrets ?? [];
    const cassette = parseCassette(readCassetteText(file), file);
    this.id = cassette.provider.id;
    this.capabilities = cassette.provider.capabilities;
    this.#turns = cassette.turns;
  }

  /** Recorded turns not requested yet. */
  get remaining(): number {
    return this.#turns.length - this.#next;
  }

  /**
   * Throws the first failure of the replay (a request that did not match, one too many), or a
   * `cassette_leftover` error when recorded turns were never requested.
   */
  assertComplete(): void {
    if (this.#failure) throw this.#failure;
    if (this.remaining > 0) {
      throw new CassetteError(
        `replayProvider: ${this.remaining} of the ${this.#turns.length} recorded turns of ${this.file} were never requested ` +
          `(the run made ${this.#next} model call(s)). Check why the run ended early, or record the cassette again.`,
        { code: 'cassette_leftover', file: this.file, turn: this.#next + 1 },
      );
    }
  }

  async *stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    const number = ++this.#next;
    const turn = this.#turns[number - 1];
    if (!turn) {
      throw this.#fail(
        `replayProvider: request #${number} has no recorded turn in ${this.file} (it holds ${this.#turns.length}). ` +
          'The run made more model calls than the recorded one: record the cassette again if that is intended.',
        { code: 'cassette_exhausted', turn: number },
      );
    }
    const difference = firstDifference(turn.request, cassetteRequest(request, this.#secrets));
    if (difference) {
      const hint =
        typeof difference.expected === 'string' && difference.expected.includes(REDACTED)
          ? '\nThe recording redacted a secret here: pass replayProvider the same `secrets` as recordProvider.'
          : '';
      throw this.#fail(
        `replayProvider: request #${number} does not match turn ${turn.turn} of ${this.file}.\n` +
          `${describeDifference(difference)}${hint}\nIf the change is intended, record the cassette again.`,
        { code: 'cassette_mismatch', turn: number, difference },
      );
    }
    const { signal } = request;
    // The cassette keeps chunks, not the batches they came in: each is replayed as a batch of its own, the
    // finest split, which gives the agent the same events as any other.
    for (const chunk of turn.chunks) {
      if (signal.aborted) throw new CancelledError(undefined, signal.reason);
      yield [replayedChunk(chunk)];
    }
    const ending = turn.ending;
    if (ending?.type === 'finished') return;
    if (ending?.type === 'error') throw replayedError(ending.error);
    if (ending?.type === 'abandoned') {
      // The recorded reader stopped here (a cancel): the real stream was still open, so this one waits.
      await untilAborted(signal);
      throw new CancelledError(undefined, signal.reason);
    }
    throw this.#fail(
      `replayProvider: turn ${turn.turn} of ${this.file} has no end: the recording stopped while its stream was still going. Record the cassette again.`,
      { code: 'cassette_invalid', turn: number },
    );
  }

  #fail(
    message: string,
    details: { code: CassetteError['code']; turn: number; difference?: CassetteError['difference'] },
  ) {
    const error = new CassetteError(message, { ...details, file: this.file });
    this.#failure ??= error;
    return error;
  }
}

/** Plays a cassette written by `recordProvider` back: `const provider = replayProvider('run.cassette.jsonl')`. */
export function replayProvider(file: string, options?: ReplayProviderOptions): ReplayProvider {
  return new ReplayProvider(file, options);
}

function readCassetteText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CassetteError(
      `replayProvider cannot read the cassette ${file} (${(error as Error).message}). Record it first with recordProvider(provider, file).`,
      { code: 'cassette_invalid', file, cause: error },
    );
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
