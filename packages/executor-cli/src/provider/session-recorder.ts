import { closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LLMProvider, ModelChunk, ModelRequest, ProviderCapabilities } from '@agentloop/core';
import type { RecordProviderOptions } from '@agentloop/core/testing';
import { CliError } from '../errors/index.js';

/**
 * `recordProvider` of `@agentloop/core/testing`, given rather than imported, so that a session that records
 * nothing never loads the testing module.
 */
export type RecordProviderFunction = (
  provider: LLMProvider,
  file: string,
  options?: RecordProviderOptions,
) => LLMProvider;

/** Options of a SessionRecorder. */
export interface SessionRecorderOptions {
  /** The cassette file; created (with its folder) or emptied at the first `record`. */
  file: string;
  /** Exact texts to redact besides what looks like a credential: the session's API keys and header values. */
  secrets: readonly string[];
  recordProvider: RecordProviderFunction;
}

/**
 * Records every model call of a session (`--record FILE`) into one cassette, whichever provider makes it.
 * `/model` gives the agent a new provider mid-session, and a cassette is one recording: a second recorder
 * on the same file would empty it. So the session has one recorder, made at the first `record`, over a
 * provider that passes each call on to the provider that made it; `record(provider)` gives the agent that
 * provider with its calls recorded. The cassette's header names the first provider (its id and
 * capabilities), which a replay takes as its own; the requests themselves do not name the provider.
 */
export class SessionRecorder {
  readonly file: string;
  readonly #options: SessionRecorderOptions;
  /** Which provider each request in flight goes to: the recorder passes the request object on as it is. */
  readonly #providers = new WeakMap<ModelRequest, LLMProvider>();
  #recording: LLMProvider | undefined;

  constructor(options: SessionRecorderOptions) {
    this.file = options.file;
    this.#options = options;
  }

  /**
   * `provider`, its calls recorded into the session's cassette. The first call creates the cassette, and
   * throws a CliError (`invalid_record_file`) when it cannot be written.
   */
  record(provider: LLMProvider): LLMProvider {
    this.#recording ??= this.#create(provider);
    return new RecordedProvider(provider, this.#recording, this.#providers);
  }

  #create(first: LLMProvider): LLMProvider {
    try {
      makePrivateFile(this.file);
      return this.#options.recordProvider(this.#passOn(first), this.file, { secrets: this.#options.secrets });
    } catch (error) {
      // recordProvider's CassetteError keeps the file system's reason as its cause.
      const cause = (error as { cause?: unknown }).cause ?? error;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new CliError(
        `--record ${this.file}: the cassette cannot be written (${reason}). Give a file in a folder you can write to.`,
        { code: 'invalid_record_file', cause: error },
      );
    }
  }

  // What the cassette's recorder wraps: it names the first provider, and sends each call where it came from.
  #passOn(first: LLMProvider): LLMProvider {
    const providers = this.#providers;
    return {
      specificationVersion: first.specificationVersion,
      id: first.id,
      capabilities: first.capabilities,
      stream: (request) => (providers.get(request) ?? first).stream(request),
    };
  }
}

/** One provider of the session as the agent sees it: its own id and capabilities, its calls recorded. */
class RecordedProvider implements LLMProvider {
  constructor(
    /** The provider that does the work. */
    readonly inner: LLMProvider,
    private readonly recording: LLMProvider,
    private readonly providers: WeakMap<ModelRequest, LLMProvider>,
  ) {}

  get specificationVersion(): LLMProvider['specificationVersion'] {
    return this.inner.specificationVersion;
  }

  get id(): string {
    return this.inner.id;
  }

  get capabilities(): ProviderCapabilities {
    return this.inner.capabilities;
  }

  stream(request: ModelRequest): AsyncIterable<readonly ModelChunk[]> {
    this.providers.set(request, this.inner);
    return this.recording.stream(request);
  }
}

/**
 * Creates the cassette 0600 (and a missing folder 0700) before the recorder writes it, and makes an existing
 * one 0600: it holds every request and response of the session, file contents and command output included.
 * The recorder empties the file and writes it again, which keeps its mode.
 */
function makePrivateFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const descriptor = openSync(file, 'a', 0o600);
  try {
    fchmodSync(descriptor, 0o600);
  } finally {
    closeSync(descriptor);
  }
}

/** The SessionRecorder of `--record FILE`; loads `@agentloop/core/testing` only now. */
export async function openSessionRecorder(file: string, secrets: readonly string[]): Promise<SessionRecorder> {
  const { recordProvider } = await import('@agentloop/core/testing');
  return new SessionRecorder({ file, secrets, recordProvider });
}
