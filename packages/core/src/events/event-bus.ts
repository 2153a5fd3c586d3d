import { EventEmitter } from 'eventemitter3';
import type { AgentEvent, AgentEventListener, AgentEventMap, AgentEventName } from './agent-events.js';

type AnyListener = (event: AgentEvent) => void;

/**
 * A typed event emitter over eventemitter3 in which a throwing listener never breaks the emitter's
 * caller: the error is reported as a `listener-error` event and the other listeners still run.
 */
export class AgentEventBus {
  readonly #emitter = new EventEmitter();
  // eventemitter3 stops at the first throwing listener, so each listener is wrapped once and the wrapper
  // is remembered for `off`.
  readonly #wrappers = new Map<AgentEventName | '*', Map<AnyListener, AnyListener[]>>();

  on<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this {
    this.#emitter.on(name, this.#wrap(name, listener as AnyListener, false));
    return this;
  }

  once<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this {
    this.#emitter.once(name, this.#wrap(name, listener as AnyListener, true));
    return this;
  }

  off<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): this {
    const wrapped = this.#wrappers.get(name)?.get(listener as AnyListener)?.shift();
    if (wrapped) this.#emitter.off(name, wrapped);
    return this;
  }

  /** Listens to every event; returns a function that stops listening. */
  onAny(listener: AnyListener): () => void {
    const wrapped = this.#wrap('*', listener, false);
    this.#emitter.on('*', wrapped);
    return () => {
      this.#emitter.off('*', wrapped);
      this.#wrappers.get('*')?.delete(listener);
    };
  }

  /** Delivers an event to its listeners, then to the catch-all listeners. Never throws. */
  emit<Name extends AgentEventName>(event: AgentEventMap[Name]): void {
    this.#emitter.emit(event.type, event);
    this.#emitter.emit('*', event);
  }

  #wrap(name: AgentEventName | '*', listener: AnyListener, once: boolean): AnyListener {
    const wrapped: AnyListener = (event) => {
      if (once) this.#forget(name, listener, wrapped);
      try {
        listener(event);
      } catch (error) {
        if (event.type === 'listener-error') return;
        this.emit({ type: 'listener-error', event: event.type, error });
      }
    };
    let byListener = this.#wrappers.get(name);
    if (!byListener) {
      byListener = new Map();
      this.#wrappers.set(name, byListener);
    }
    byListener.set(listener, [...(byListener.get(listener) ?? []), wrapped]);
    return wrapped;
  }

  #forget(name: AgentEventName | '*', listener: AnyListener, wrapped: AnyListener): void {
    const list = this.#wrappers.get(name)?.get(listener);
    if (list) list.splice(list.indexOf(wrapped), 1);
  }
}
