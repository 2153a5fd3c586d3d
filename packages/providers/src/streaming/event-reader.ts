import type { ModelChunk } from '@agentloop/spec';
import { malformedEvent } from '../errors/malformed-event-error.js';

/** Turns a vendor's events into chunks: one reader per attempt. */
export interface EventReader<E> {
  /** Whether the answer is complete: nothing after the event that completed it matters. */
  readonly complete: boolean;
  /** The chunks one event produces. */
  read(event: E): readonly ModelChunk[];
  /** Called when the events ended: the chunks still owed; throws when they ended before the answer was complete. */
  finish(): readonly ModelChunk[];
}

/** The events of a response: all of them at once (not streamed) or as the SDK streams them. */
export type AttemptEvents<E> = readonly E[] | (AsyncIterable<E> & { readonly controller?: AbortController });

/** What one attempt opened: its events and the reader that turns them into chunks. */
export interface OpenedAttempt<E> {
  events: AttemptEvents<E>;
  reader: EventReader<E>;
}

/**
 * The chunks of one event. A reader fails on an event whose shape is not the API's with a TypeError; it is
 * reported as such (invalid_response, naming the event), not as a bare TypeError.
 */
export function readEvent<E>(reader: EventReader<E>, event: E): readonly ModelChunk[] {
  try {
    return reader.read(event);
  } catch (error) {
    throw malformedEvent(error, event);
  }
}
