// The base error lives in the contracts package, the lowest one, because every other package (and every
// third-party tool package or provider) must be able to throw and recognise it. @agentloop/tools and
// @agentloop/core re-export it.

import { describeThrown } from './describe-thrown.js';

const MARKER = Symbol.for('agentloop.error');

/** What a program should do about an error: try again, shrink the context, or stop. */
export type ErrorAction = 'retry' | 'compact' | 'stop';

/** Options every agentloop error accepts. */
export interface AgentloopErrorOptions<Code extends string = string> {
  /** Stable machine-readable code, e.g. `rate_limit` or `invalid_arguments`. */
  code: Code;
  /** The error this one wraps. */
  cause?: unknown;
  /** True when repeating the same operation may succeed. */
  retryable?: boolean;
  /** Server-suggested wait before a retry, in milliseconds. */
  retryAfterMs?: number;
  /** HTTP status code, when the error came from an HTTP response. */
  statusCode?: number;
  /** What to do next; derived from `retryable` when omitted. */
  action?: ErrorAction;
}

/**
 * The one base class of every error agentloop throws or reports. Check with
 * `AgentloopError.isInstance(error)` rather than `instanceof`: it also recognises errors from a second
 * copy of the package (duplicated installs).
 */
export class AgentloopError<Code extends string = string> extends Error {
  readonly [MARKER] = true;
  /** Stable machine-readable code. */
  readonly code: Code;
  /** True when repeating the same operation may succeed. */
  readonly retryable: boolean;
  /** Server-suggested wait before a retry, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** HTTP status code, when the error came from an HTTP response. */
  readonly statusCode: number | undefined;
  /** What a program should do next. */
  readonly action: ErrorAction;

  constructor(message: string, options: AgentloopErrorOptions<Code>) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
    this.statusCode = options.statusCode;
    this.action = options.action ?? (this.retryable ? 'retry' : 'stop');
  }

  /** True for any agentloop error, whichever copy of the package created it. Never throws. */
  static isInstance(value: unknown): value is AgentloopError {
    if (typeof value !== 'object' || value === null) return false;
    try {
      return (value as Record<symbol, unknown>)[MARKER] === true;
    } catch {
      // A Proxy whose trap throws is not one of ours, and a check must never throw.
      return false;
    }
  }

  /** Wraps anything thrown into an AgentloopError, keeping agentloop errors as they are. Never throws. */
  static from(value: unknown, code: string = 'unknown'): AgentloopError {
    if (AgentloopError.isInstance(value) && hasReadableFields(value)) return value;
    return new AgentloopError(describeThrown(value), { code, cause: value });
  }

  /** A plain object for logs and JSON events (Error fields are not enumerable). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      action: this.action,
      ...(this.statusCode === undefined ? {} : { statusCode: this.statusCode }),
      ...(this.retryAfterMs === undefined ? {} : { retryAfterMs: this.retryAfterMs }),
    };
  }
}

/**
 * True when what a reporter reads of an error (`message`, `code`) can be read: an object that only claims
 * to be ours (the marker on a Proxy, a throwing getter) is wrapped rather than passed on to fail later.
 */
function hasReadableFields(error: AgentloopError): boolean {
  try {
    return typeof error.message === 'string' && typeof error.code === 'string';
  } catch {
    return false;
  }
}
