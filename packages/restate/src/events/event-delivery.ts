import type { AgentEvent } from '@agentloop/core';
import type { DurableEventContext } from '../durable-agent-options.js';

type Listener = (event: AgentEvent, context: DurableEventContext) => void | Promise<void>;

/**
 * Hands a run's events to the app's `onEvent`, and keeps the deliveries still going, so that a journal
 * step is recorded (and the handler returns) only once the events before it were delivered.
 */
export class EventDelivery {
  readonly #listener: Listener | undefined;
  readonly #context: DurableEventContext;
  readonly #pending = new Set<Promise<void>>();

  constructor(listener: Listener | undefined, context: DurableEventContext) {
    this.#listener = listener;
    this.#context = context;
  }

  /** Delivers one event. Never throws: a failing listener is reported on stderr, not called again for it. */
  deliver(event: AgentEvent): void {
    if (!this.#listener) return;
    let delivery: void | Promise<void>;
    try {
      delivery = this.#listener(event, this.#context);
    } catch (error) {
      reportFailure(event, error);
      return;
    }
    if (!(delivery instanceof Promise)) return;
    const tracked: Promise<void> = delivery
      .catch((error: unknown) => reportFailure(event, error))
      .finally(() => this.#pending.delete(tracked));
    this.#pending.add(tracked);
  }

  /** Resolves once every delivery started so far has settled. */
  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}

function reportFailure(event: AgentEvent, error: unknown): void {
  console.warn(`durableAgent: onEvent failed for ${event.type} ${event.eventId ?? ''}: ${String(error)}`);
}
