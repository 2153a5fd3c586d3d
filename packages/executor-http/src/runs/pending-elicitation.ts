import type { AgentEventMap, SubagentStep } from '@agentloop/core';
import { AgentloopError } from '@agentloop/core';
import { HttpError } from '../errors/http-error.js';
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

export function noPendingElicitation(sessionId: string, requestId: string): HttpError {
  return new HttpError(
    `Session ${sessionId} has no pending elicitation ${requestId}: it was answered, timed out, or its tool call or run ended. GET /api/sessions/${sessionId} shows what is pending.`,
    { code: 'not_found', statusCode: 404 },
  );
}

/** The agent's refusal of an answer, for the client: an unknown id is a 404, a bad answer a 400. */
export function toElicitationHttpError(error: unknown, sessionId: string, requestId: string): unknown {
  if (!AgentloopError.isInstance(error)) return error;
  if (error.code === 'unknown_elicitation') return noPendingElicitation(sessionId, requestId);
  if (error.code === 'invalid_usage') {
    // The agent names a form's required fields left empty; the client gets them beside the message.
    const fields = (error as { fields?: unknown }).fields;
    return new HttpError(error.message, {
      code: 'invalid_body',
      statusCode: 400,
      ...(Array.isArray(fields) ? { details: { fields } } : {}),
      cause: error,
    });
  }
  return error;
}
