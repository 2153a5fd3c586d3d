// The cassette format: JSON lines, one header line, then per model call (a turn) its request, each chunk
// that answered it, and how its stream ended. Every line names its turn, so the calls of a provider used
// concurrently can interleave; nested objects have sorted keys, so a cassette diffs well.
//
//   {"type":"cassette","format":"agentloop-cassette","version":1,"provider":{"capabilities":{…},"id":"anthropic"}}
//   {"type":"request","turn":1,"request":{"messages":[…],"systemPrompt":"…","toolChoice":"auto","tools":[…]}}
//   {"type":"chunk","turn":1,"chunk":{"text":"Hello","type":"text-delta"}}
//   {"type":"end","turn":1,"outcome":"finished"}          or  {"type":"error","turn":1,"error":{…}}

import type {
  ErrorAction,
  LLMProvider,
  ModelChunk,
  ModelRequest,
  ProviderCapabilities,
  ProviderErrorCode,
} from '@agentloop/spec';
import { AgentloopError, CancelledError, ProviderError } from '@agentloop/spec';
import { canonicalJson, type JsonValue } from './canonical-json.js';
import { CassetteError } from './cassette-error.js';
import { redactSecrets } from './redact-secrets.js';

const FORMAT = 'agentloop-cassette';
const VERSION = 1;

/** An error as a cassette keeps it: what a program acts on, not its stack or cause. */
export interface RecordedError {
  name: string;
  message: string;
  code?: string;
  provider?: string;
  statusCode?: number;
  retryAfterMs?: number;
  retryable?: boolean;
  action?: ErrorAction;
}

/** How a turn's stream ended: it finished, threw, or its reader stopped reading (a cancel). */
export type TurnEnding = { type: 'finished' } | { type: 'abandoned' } | { type: 'error'; error: RecordedError };

/** One recorded model call. */
export interface CassetteTurn {
  /** 1-based, in the order the requests were made. */
  turn: number;
  /** The request, without its signal, as `cassetteRequest` wrote it. */
  request: JsonValue;
  /** The chunks as written (a retry chunk's error as a RecordedError). */
  chunks: JsonValue[];
  /** Absent when the recording stopped before the stream did. */
  ending?: TurnEnding;
}

/** A cassette read from its file. */
export interface Cassette {
  provider: { id: string; capabilities: ProviderCapabilities };
  turns: CassetteTurn[];
}

/** The header line of a new cassette. */
export function headerLine(provider: LLMProvider): string {
  const described = canonicalJson({ id: provider.id, capabilities: provider.capabilities });
  return JSON.stringify({ type: 'cassette', format: FORMAT, version: VERSION, provider: described });
}

/** The request line of a turn. */
export function requestLine(turn: number, request: JsonValue): string {
  return JSON.stringify({ type: 'request', turn, request });
}

/** The line of one chunk of a turn. */
export function chunkLine(turn: number, chunk: ModelChunk, secrets: readonly string[]): string {
  let encoded: unknown = chunk;
  if (chunk.type === 'retry') encoded = { ...chunk, error: recordedError(chunk.error) };
  else if (chunk.type === 'tool-call') encoded = { ...chunk, input: redactedInput(chunk.input, secrets) };
  return JSON.stringify({ type: 'chunk', turn, chunk: redactSecrets(canonicalJson(encoded), secrets) });
}

// A tool call's arguments arrive as JSON text, where a credential field (`{"apiKey":"…"}`) is not a field
// of the chunk: they are redacted as JSON. The text is rewritten only when something was redacted, so
// the replay streams what the model wrote, byte for byte, whenever it can.
function redactedInput(input: string, secrets: readonly string[]): string {
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(input) as JsonValue;
  } catch {
    return input; // broken JSON, as a model may write it: redacted as text with the rest of the chunk
  }
  const redacted = redactSecrets(parsed, secrets);
  return JSON.stringify(redacted) === JSON.stringify(parsed) ? input : JSON.stringify(redacted);
}

/** The last line of a turn whose stream finished or was abandoned. */
export function endLine(turn: number, outcome: 'finished' | 'abandoned'): string {
  return JSON.stringify({ type: 'end', turn, outcome });
}

/** The last line of a turn whose stream threw. */
export function errorLine(turn: number, error: unknown, secrets: readonly string[]): string {
  return JSON.stringify({ type: 'error', turn, error: redactSecrets(canonicalJson(recordedError(error)), secrets) });
}

/**
 * A request as a cassette keeps it and as a replay compares it: every field but the signal, as JSON (so
 * callbacks and `undefined` fields drop out), keys sorted, secrets redacted.
 */
export function cassetteRequest(request: ModelRequest, secrets: readonly string[]): JsonValue {
  const { signal: _signal, ...compared } = request;
  return redactSecrets(canonicalJson(compared), secrets);
}

/** A chunk as the replay yields it: a retry chunk's error becomes an error again. */
export function replayedChunk(chunk: JsonValue): ModelChunk {
  const decoded = chunk as unknown as ModelChunk;
  if (decoded.type !== 'retry') return structuredClone(decoded);
  return { ...decoded, error: AgentloopError.from(replayedError(decoded.error as unknown as RecordedError)) };
}

/** The error a recorded one stands for, of the same class where agentloop has it (ProviderError, CancelledError). */
export function replayedError(recorded: RecordedError): Error {
  const { message, code, provider } = recorded;
  if (code === 'cancelled' && recorded.name === 'CancelledError') return new CancelledError(message);
  if (provider !== undefined && code !== undefined) {
    return new ProviderError(message, {
      code: code as ProviderErrorCode,
      provider,
      ...(recorded.statusCode === undefined ? {} : { statusCode: recorded.statusCode }),
      ...(recorded.retryAfterMs === undefined ? {} : { retryAfterMs: recorded.retryAfterMs }),
      ...(recorded.retryable === undefined ? {} : { retryable: recorded.retryable }),
    });
  }
  if (code !== undefined) {
    return new AgentloopError(message, {
      code,
      ...(recorded.statusCode === undefined ? {} : { statusCode: recorded.statusCode }),
      ...(recorded.retryAfterMs === undefined ? {} : { retryAfterMs: recorded.retryAfterMs }),
      ...(recorded.retryable === undefined ? {} : { retryable: recorded.retryable }),
      ...(recorded.action === undefined ? {} : { action: recorded.action }),
    });
  }
  const error = new Error(message);
  error.name = recorded.name;
  return error;
}

function recordedError(error: unknown): RecordedError {
  if (AgentloopError.isInstance(error)) {
    const provider = (error as Partial<ProviderError>).provider;
    return {
      name: error.name,
      message: error.message,
      code: error.code,
      retryable: error.retryable,
      action: error.action,
      ...(typeof provider === 'string' ? { provider } : {}),
      ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
    };
  }
  const described = AgentloopError.from(error);
  return { name: error instanceof Error ? error.name : 'Error', message: described.message };
}

/** Reads a cassette's text; a line that is not what the format says is a `cassette_invalid` error naming it. */
export function parseCassette(text: string, file: string): Cassette {
  const lines = text.split('\n');
  const invalid = (line: number, why: string) =>
    new CassetteError(`${file}:${line} is not a valid cassette line: ${why}.`, { code: 'cassette_invalid', file });
  const header = parseLine(lines[0] ?? '', () => invalid(1, 'not JSON'));
  if (header?.type !== 'cassette' || header.format !== FORMAT) {
    throw new CassetteError(
      `${file} is not an agentloop cassette (its first line is not a cassette header). Record one with recordProvider(provider, file).`,
      { code: 'cassette_invalid', file },
    );
  }
  if (header.version !== VERSION) {
    throw new CassetteError(
      `${file} is a cassette of version ${JSON.stringify(header.version)}; this version of @agentloop/core reads version ${VERSION}. Record it again.`,
      { code: 'cassette_invalid', file },
    );
  }
  const turns = new Map<number, CassetteTurn>();
  for (const [index, text] of lines.entries()) {
    if (index === 0 || text.trim() === '') continue;
    const line = parseLine(text, () => invalid(index + 1, 'not JSON'));
    const turnNumber = line?.turn;
    if (typeof turnNumber !== 'number' || !Number.isInteger(turnNumber) || turnNumber < 1) {
      throw invalid(index + 1, 'no turn number');
    }
    if (line?.type === 'request') {
      if (turns.has(turnNumber)) throw invalid(index + 1, `a second request for turn ${turnNumber}`);
      turns.set(turnNumber, { turn: turnNumber, request: line.request ?? null, chunks: [] });
      continue;
    }
    const turn = turns.get(turnNumber);
    if (!turn) throw invalid(index + 1, `turn ${turnNumber} has no request before it`);
    if (turn.ending) throw invalid(index + 1, `turn ${turnNumber} already ended`);
    if (line?.type === 'chunk') turn.chunks.push(line.chunk ?? null);
    else if (line?.type === 'error') turn.ending = { type: 'error', error: line.error as unknown as RecordedError };
    else if (line?.type === 'end' && (line.outcome === 'finished' || line.outcome === 'abandoned')) {
      turn.ending = { type: line.outcome };
    } else throw invalid(index + 1, `unknown line type ${JSON.stringify(line?.type)}`);
  }
  const provider = header.provider as unknown as Cassette['provider'];
  return { provider, turns: [...turns.values()].sort((a, b) => a.turn - b.turn) };
}

function parseLine(text: string, invalid: () => CassetteError): { [key: string]: JsonValue } | undefined {
  try {
    const value = JSON.parse(text) as JsonValue;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    throw invalid();
  }
}
