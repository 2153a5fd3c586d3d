import { AgentloopError } from './errors/index.js';
import { isPromiseLike } from './promise-like.js';
import type { ToolContext } from './tool.js';

/** A value, or a promise of it: the sync fast path of tools and validators that need no await. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * One call's run: the tool's work raced against the run's signal and the call's timeout, whichever comes
 * first. The tool's own signal (aborted by either) is made only when the tool reads `context.signal`:
 * most tools never do, and an AbortController per call would be the loop's largest cost per step.
 */
export class CallRace {
  readonly #parent: AbortSignal;
  readonly #timeoutMs: number;
  #controller: AbortController | undefined;
  #timeout: AgentloopError | undefined;
  #endReason: unknown;
  /** The running timer and what it fires: set while the race waits on a timed call. */
  #timer: { handle: ReturnType<typeof setTimeout> | undefined; fire: () => void; dueAt: number } | undefined;
  /** How many waits for the user are going on (elicitations): the timeout stands still meanwhile. */
  #pauses = 0;
  /** The time the timeout had left when the first of the current pauses began. */
  #remainingAtPause = 0;

  constructor(parent: AbortSignal, timeoutMs: number) {
    this.#parent = parent;
    this.#timeoutMs = timeoutMs;
  }

  /** True when the call ran past its timeout. */
  get timedOut(): boolean {
    return this.#timeout !== undefined;
  }

  /** True once the race was lost to a cancel or the timeout: the call is answered, nothing may start. */
  get ended(): boolean {
    return this.#endReason !== undefined;
  }

  /** What ended the race (the abort reason or the timeout error), once `ended`. */
  get endReason(): unknown {
    return this.#endReason;
  }

  /**
   * Runs `work`. Its value as it is when it is not a promise: the work is over, nothing is left to race.
   * Otherwise a promise that rejects with the abort reason on cancel, or with a timeout error, without
   * waiting for the work. Throws what `work` throws synchronously, and the abort reason when `work` itself
   * aborted the run's signal.
   */
  race<T>(work: () => MaybePromise<T>): MaybePromise<T> {
    const parent = this.#parent;
    // The timeout counts from here: a tool's synchronous part (or its validation's) spends it too.
    const timed = this.#timeoutMs > 0 && Number.isFinite(this.#timeoutMs);
    const started = timed ? performance.now() : 0;
    const running = work();
    // The tool's synchronous part may itself have aborted the run's signal: the event has then fired.
    if (parent.aborted) {
      this.#controller?.abort(parent.reason);
      throw parent.reason ?? new Error('aborted');
    }
    if (!isPromiseLike(running)) return running;
    return new Promise<T>((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(this.#timer?.handle);
        this.#timer = undefined;
        parent.removeEventListener('abort', onAbort);
      };
      const stop = (reason: unknown): void => {
        cleanup();
        this.#endReason ??= reason ?? new Error('aborted');
        reject(reason);
      };
      const onAbort = (): void => {
        this.#controller?.abort(parent.reason);
        stop(parent.reason ?? new Error('aborted'));
      };
      parent.addEventListener('abort', onAbort, { once: true });
      if (timed) {
        const remainingMs = Math.max(0, this.#timeoutMs - (performance.now() - started));
        const fire = () => {
          this.#timeout = new AgentloopError(`The tool call timed out after ${formatDuration(this.#timeoutMs)}.`, {
            code: 'timeout',
          });
          this.#controller?.abort(this.#timeout);
          stop(this.#timeout);
        };
        this.#timer = { handle: undefined, fire, dueAt: performance.now() + remainingMs };
        if (this.#pauses === 0) this.#timer.handle = setTimeout(fire, remainingMs);
        else this.#remainingAtPause = remainingMs;
      }
      running.then(
        (value) => {
          cleanup();
          resolve(value);
        },
        (error: unknown) => stop(error),
      );
    });
  }

  /**
   * Stops the timeout's clock until the returned function is called: the time a user takes to answer a
   * tool's question is not the tool's. Pauses nest; the clock runs again when the last one ends.
   */
  pause(): () => void {
    this.#pauses += 1;
    const timer = this.#timer;
    if (this.#pauses === 1 && timer?.handle !== undefined) {
      clearTimeout(timer.handle);
      timer.handle = undefined;
      this.#remainingAtPause = Math.max(0, timer.dueAt - performance.now());
    }
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      this.#pauses -= 1;
      const current = this.#timer;
      if (this.#pauses > 0 || !current || current.handle !== undefined) return;
      current.dueAt = performance.now() + this.#remainingAtPause;
      current.handle = setTimeout(current.fire, this.#remainingAtPause);
    };
  }

  /** The call's own signal, made the first time a tool reads it. */
  signal(): AbortSignal {
    if (!this.#controller) {
      const controller = new AbortController();
      this.#controller = controller;
      if (this.#parent.aborted) controller.abort(this.#parent.reason);
      else if (this.#timeout) controller.abort(this.#timeout);
    }
    return this.#controller.signal;
  }
}

/**
 * The context a tool gets: the caller's, with the call's own signal, made when first read. `signal` is an
 * own, enumerable getter, so that a tool that passes on `{ ...context }` passes the signal on too. Defined
 * from one shared descriptor: an object literal with a getter costs about 30 times as much to make, and
 * this happens once per call.
 */
export class CallContext implements ToolContext {
  static readonly #signalProperty: PropertyDescriptor = {
    enumerable: true,
    get(this: CallContext): AbortSignal {
      return this.#race.signal();
    },
  };
  // Read from the caller's context when a tool reads it: the agent's loop derives it with a hash, which
  // most tools never need. (Two defineProperty calls measure cheaper than one defineProperties.)
  static readonly #idempotencyKeyProperty: PropertyDescriptor = {
    enumerable: true,
    get(this: CallContext): string | undefined {
      return this.#caller.idempotencyKey;
    },
  };

  readonly sessionId: string;
  readonly workspace: string;
  readonly toolCallId: string;
  declare readonly idempotencyKey: string | undefined;
  readonly reportProgress: ToolContext['reportProgress'];
  declare readonly elicit?: ToolContext['elicit'];
  declare readonly sample?: ToolContext['sample'];
  declare readonly signal: AbortSignal;
  readonly #race: CallRace;
  readonly #caller: ToolContext;

  constructor(context: ToolContext, race: CallRace) {
    this.sessionId = context.sessionId;
    this.workspace = context.workspace;
    this.toolCallId = context.toolCallId;
    this.reportProgress = context.reportProgress;
    // Absent, not undefined, outside an agent: a tool tells the two apart with `'elicit' in context` too.
    const { elicit, sample } = context;
    if (elicit) {
      // The timeout waits while the user answers; a call that ends (cancel, timeout) ends its request.
      const paused: NonNullable<ToolContext['elicit']> = (request) => {
        const resume = race.pause();
        return elicit({ ...request, signal: withCallSignal(race, request.signal) }).finally(resume);
      };
      Object.defineProperty(this, 'elicit', { value: paused, enumerable: true });
    }
    if (sample) {
      const bounded: NonNullable<ToolContext['sample']> = (request) =>
        sample({ ...request, signal: withCallSignal(race, request.signal) });
      Object.defineProperty(this, 'sample', { value: bounded, enumerable: true });
    }
    this.#race = race;
    this.#caller = context;
    Object.defineProperty(this, 'signal', CallContext.#signalProperty);
    Object.defineProperty(this, 'idempotencyKey', CallContext.#idempotencyKeyProperty);
  }
}

/** The call's own signal, and the request's where it has one: either ends the request. */
function withCallSignal(race: CallRace, signal: AbortSignal | undefined): AbortSignal {
  return signal ? AbortSignal.any([race.signal(), signal]) : race.signal();
}

/** A duration for a message: milliseconds under a second, else seconds to one decimal. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
