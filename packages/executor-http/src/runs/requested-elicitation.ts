import type { AgentEventMap } from '@agentloop/core';

/** A tool's request for the user's input as core's `elicitation-requested` event has it, less the loop's own fields. */
export type RequestedElicitation = Omit<AgentEventMap['elicitation-requested'], 'type' | 'iteration'>;

/**
 * The request of an `elicitation-requested` event, as every view of it (the sessions route, both streams)
 * shows it: a form always has its schema (an empty object form when the event lacked one) and a page its
 * `url`, and neither carries the other mode's field, so a client can switch on `mode` alone.
 */
export function requestedElicitation(event: AgentEventMap['elicitation-requested']): RequestedElicitation {
  return {
    requestId: event.requestId,
    toolCallId: event.toolCallId,
    name: event.name,
    ...(event.server === undefined ? {} : { server: event.server }),
    message: event.message,
    mode: event.mode,
    ...(event.mode === 'url' ? { url: event.url ?? '' } : { schema: event.schema ?? { type: 'object' } }),
  };
}
