import type { WireResponse, WireResponseEvent } from './wire-response-event.js';

/**
 * The stream events that would have delivered `response`, so that a non-streamed response goes through
 * the same ResponsesStreamReader as a streamed one.
 */
export function responseEvents(response: WireResponse): WireResponseEvent[] {
  const events: WireResponseEvent[] = [];
  for (const item of response.output ?? []) {
    events.push({ type: 'response.output_item.added', item });
    if (item.type === 'reasoning' && 'summary' in item) {
      (item.summary ?? []).forEach((part, index) => {
        events.push({ type: 'response.reasoning_summary_part.added', item_id: item.id, summary_index: index });
        events.push({ type: 'response.reasoning_summary_text.delta', item_id: item.id, delta: part.text });
      });
    } else if (item.type === 'message' && 'content' in item) {
      for (const part of item.content ?? []) {
        if (part.type === 'output_text' && part.text)
          events.push({ type: 'response.output_text.delta', delta: part.text });
        if (part.type === 'refusal' && part.refusal)
          events.push({ type: 'response.refusal.delta', delta: part.refusal });
      }
    }
    events.push({ type: 'response.output_item.done', item });
  }
  const status =
    response.status === 'incomplete'
      ? 'response.incomplete'
      : response.status === 'failed'
        ? 'response.failed'
        : 'response.completed';
  events.push({ type: status, response });
  return events;
}
