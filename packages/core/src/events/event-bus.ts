import { EventEmitter } from 'node:events';
import type { AgentEvent, AgentEventListener, AgentEventMap, AgentEventName } from './agent-events.js';

// The listeners of all events are kept in one map, so each is stored as a listener of any event: the
// four casts to AnyListener below are that widening, checked by `on`'s and `off`'s signatures.
type AnyListener = (event: AgentEvent) => unknown;

/**
 * A typed event emitter over Node's EventEmitter in which a failing listener never breaks the emitter's
 * caller: a throw, or a rejected promise from an async listener, is reported as a `listener-error`
 * event and the other listeners still run.
 */
export class AgentEventBus {
  // Node's, not eventemitter3: that is CommonJS, and the first CommonJS module a process loads starts
  // Node's CommonJS loader, 10–25 ms of core's start-up. No agent event is
  // named `error`, which Node's emitter would throw when nobody listens.
  readonly #emitter = new EventEmitter();
  // Node's emitter stops at the first throwing listener, so each listener is wrapped, and the wrapper is
  // remembered (per event name and listener) so that `off` can find it.
  readonly #wrappers = new Map<AgentEventName, Map<AnyListener, AnyListener[]>>();

  constructor() {
    // An app may watch an agent with many listeners; Node warns past ten, as if they leaked.
    this.#emitter.setMaxListeners(0);
  }

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

  /** Delivers an event to its listeners, then to the catch-all listeners. Never throws. */
  emit<Name extends AgentEventName>(event: AgentEventMap[Name]): void {
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
