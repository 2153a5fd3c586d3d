import { AgentloopError } from '@agentloop/spec';
import type { JsonDifference } from './first-difference.js';

/**
 * What went wrong with a cassette: `cassette_mismatch` (a request differs from the recorded one),
 * `cassette_exhausted` (more requests than recorded turns), `cassette_leftover` (recorded turns never
 * requested), `cassette_invalid` (a file that is missing or not a cassette).
 */
export type CassetteErrorCode = 'cassette_mismatch' | 'cassette_exhausted' | 'cassette_leftover' | 'cassette_invalid';

/** Options of a CassetteError. */
export interface CassetteErrorOptions {
  code: CassetteErrorCode;
  /** The cassette file. */
  file: string;
  /** The turn (1-based) the error is about, when it is about one. */
  turn?: number;
  /** Where the request first differs from the recorded one (`cassette_mismatch`). */
  difference?: JsonDifference;
  cause?: unknown;
}

/** A replayed run did not do what the cassette recorded, or the cassette cannot be read. */
export class CassetteError extends AgentloopError<CassetteErrorCode> {
  /** The cassette file. */
  readonly file: string;
  /** The turn (1-based) the error is about. */
  readonly turn: number | undefined;
  /** Where the request first differs from the recorded one. */
  readonly difference: JsonDifference | undefined;

  constructor(message: string, options: CassetteErrorOptions) {
    super(message, { code: options.code, cause: options.cause });
    this.file = options.file;
    this.turn = options.turn;
    this.difference = options.difference;
  }
}
