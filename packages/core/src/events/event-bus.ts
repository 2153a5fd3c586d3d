import { EventEmitter } from 'eventemitter3';
import { randomId } from '../agent/random-id.js';
import type { AgentEvent, AgentEventListener, AgentEventName, AgentEventPayloads } from './agent-events.js';

// The listeners of all events are kept in one map, so each is stored as a listener of any event: the
// four casts to AnyListener below are that widening, checked by `on`'s and `off`'s signatures.
type AnyListener = (event: AgentEvent) => unknown;

/** Where events go: the bus itself, or one of its scopes (`AgentEventBus.scope`). */
export interface AgentEventSink {
  /** Delivers an event, stamped with its `eventId`. Never throws. */
  emit<Name extends AgentEventName>(event: AgentEventPayloads[Name]): void;
  /** How many listeners an event has (catch-all listeners not counted). */
  listenerCount(name: AgentEventName): number;
}

/**
 * The ids of one run's events: how many of each type each scope has emitted. Counted by type, so that an
 * event a replay leaves out (an approval request whose answer the journal holds) shifts no other's id.
 */
class RunEventIds {
  readonly #counts = new Map<string, number>();

  constructor(readonly runId: string) {}

  next(scope: string, type: AgentEventName): string {
    const key = `${scope}/${type}`;
    const n = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, n);
    return `${this.runId}/${key}/${n}`;
  }
}

/**
 * A typed event emitter over eventemitter3 in which a failing listener never breaks the emitter's
 * caller: a throw, or a rejected promise from an async listener, is reported as a `listener-error`
 * event and the other listeners still run.
 */
export class AgentEventBus implements AgentEventSink {
  /** The ids of the run going on; absent between runs, whose events get random ids. */
  #run: RunEventIds | undefined;
  // eventemitter3 rather than Node's: it warns about no number of listeners (an app may watch an agent with
  // many) and has no `error` event that throws when nobody listens. It is CommonJS, and
  // the first CommonJS module a process loads starts Node's CommonJS loader (10–25 ms of start-up), so
  // scripts/bundle-dist.mjs bundles it into core's dist as ES module code.
  readonly #emitter = new EventEmitter<Record<AgentEventName | '*', AnyListener>>();
  // eventemitter3 stops at the first throwing listener, so each listener is wrapped, and the wrapper is
  // remembered (per event name and listener) so that `off` can find it.
  readonly #wrappers = new Map<AgentEventName, Map<AnyListener, AnyListener[]>>();

  on<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this {
    this.#emitter.on(name, this.#remember(name, listener as AnyListener, false));
    return this;
  }

  once<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this {
    this.#emitter.once(name, this.#remember(name, listener as AnyListener, true));
    return this;
  }

  off<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this {
    const wrapped = this.#wrappers.get(name)?.get(listener as AnyListener)?.[0];
    if (wrapped) {
      this.#forget(name, listener as AnyListener, wrapped);
      this.#emitter.off(name, wrapped);
    }
    return this;
  }

  /** How many listeners an event has (catch-all listeners not counted). */
  listenerCount(name: AgentEventName): number {
    return this.#emitter.listenerCount(name);
  }

  /** Listens to every event; returns a function that stops listening. */
  onAny(listener: (event: AgentEvent) => unknown): () => void {
    const wrapped = this.#guard(listener);
    this.#emitter.on('*', wrapped);
    return () => void this.#emitter.off('*', wrapped);
  }

  /**
   * Starts numbering a run's events: from here until `endRun`, an event emitted on the bus gets an id in
   * the run's `run` scope, so the same run replayed from its journal gives its events the same ids.
   */
  beginRun(runId: string): void {
    this.#run = new RunEventIds(runId);
  }

  /** Stops numbering the run's events, unless another run began since (a `loop-end` listener may start one). */
  endRun(runId: string): void {
    if (this.#run?.runId === runId) this.#run = undefined;
  }

  /**
   * A sink whose events are numbered in a scope of their own within the run going on: events that may be
   * emitted at the same time as others (a tool call's, beside the calls running with it) or only when a
   * journal step runs (a model call's text) are numbered apart, so that the run's other ids stay the same
   * whatever the timing, and replay.
   */
  scope(name: string): AgentEventSink {
    const run = this.#run;
    return {
      emit: (event) => this.#deliver(event, run ? run.next(name, event.type) : randomId()),
      listenerCount: (eventName) => this.listenerCount(eventName),
    };
  }

  /** Delivers an event to its listeners, then to the catch-all listeners. Never throws. */
  emit<Name extends AgentEventName>(event: AgentEventPayloads[Name]): void {
    this.#deliver(event, this.#run ? this.#run.next('run', event.type) : randomId());
  }

  #deliver(payload: AgentEventPayloads[AgentEventName], eventId: string): void {
    const event = { ...payload, eventId } as AgentEvent;
    this.#emitter.emit(event.type, event);
    this.#emitter.emit('*', event);
  }

  #guard(listener: AnyListener): AnyListener {
    return (event) => {
      const report = (error: unknown) => {
        if (event.type !== 'listener-error') this.emit({ type: 'listener-error', event: event.type, error });
      };
      try {
        const returned = listener(event);
        if (returned instanceof Promise) returned.catch(report);
      } catch (error) {
        report(error);
      }
    };
  }

  #remember(name: AgentEventName, listener: AnyListener, once: boolean): AnyListener {
    const guarded = this.#guard(listener);
    const wrapped: AnyListener = once
      ? (event) => {
          this.#forget(name, listener, wrapped);
          guarded(event);
        }
      : guarded;
    let byListener = this.#wrappers.get(name);
    if (!byListener) {
      byListener = new Map();
      this.#wrappers.set(name, byListener);
    }
    byListener.set(listener, [...(byListener.get(listener) ?? []), wrapped]);
    return wrapped;
  }

  #forget(name: AgentEventName, listener: AnyListener, wrapped: AnyListener): void {
    const byListener = this.#wrappers.get(name);
    const list = byListener?.get(listener);
    if (!list) return;
    const index = list.indexOf(wrapped);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) byListener?.delete(listener);
  }
}
