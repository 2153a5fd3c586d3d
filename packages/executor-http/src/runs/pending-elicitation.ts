import type { AgentEventMap, SubagentStep } from '@agentloop/core';
import type { JsonSchema } from '@agentloop/spec';

/** A tool's request for the user's input (an MCP server's elicitation), as `GET /api/sessions/:id` shows it. */
export interface PendingElicitation {
  requestId: string;
  /** The tool call that asks. */
  toolCallId: string;
  /** The tool's name. */
  name: string;
  /** The MCP server that asks, when known. */
  server?: string;
  /** What the server wants and why, shown above the form. */
  message: string;
  /** `form`: fill in the fields of `schema`; `url`: open `url`. */
  mode: 'form' | 'url';
  /** The form: a flat JSON Schema object, in form mode. */
  schema?: JsonSchema;
  /** The page to open, in URL mode. */
  url?: string;
  /** The sub-agent calls it came through, when a sub-agent asked; empty for the agent's own. */
  path: readonly SubagentStep[];
  /** When it is cancelled unless answered (ms since the epoch). */
  expiresAt: number;
}

export function toPendingElicitation(
  event: AgentEventMap['elicitation-requested'],
  path: readonly SubagentStep[],
  expiresAt: number,
): PendingElicitation {
  return {
    requestId: event.requestId,
    toolCallId: event.toolCallId,
    name: event.name,
    ...(event.server === undefined ? {} : { server: event.server }),
    message: event.message,
    mode: event.mode,
    ...(event.schema === undefined ? {} : { schema: event.schema }),
    ...(event.url === undefined ? {} : { url: event.url }),
    path,
    expiresAt,
  };
}
