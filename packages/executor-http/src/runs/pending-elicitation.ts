import type { AgentEventMap, SubagentStep } from '@agentloop/core';
import { type RequestedElicitation, requestedElicitation } from './requested-elicitation.js';

/**
 * A tool's request for the user's input (an MCP server's elicitation), as `GET /api/sessions/:id` shows it:
 * the fields of core's `elicitation-requested` event (`requestId`, the asking `toolCallId` and tool `name`,
 * `server`, `message`, and `mode` with its `schema` or `url`) and where and until when it waits.
 */
export interface PendingElicitation extends RequestedElicitation {
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
  return { ...requestedElicitation(event), path, expiresAt };
}
