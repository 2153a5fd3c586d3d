import type { StopReason } from '@agentclientprotocol/sdk';
import type { AgentResult, LoopControlToolName } from '@agentloop/core';

/**
 * The stop reason of a prompt turn, by how the run ended: an exit tool (`task_completion`, `ask_question`,
 * `converse`) ends the turn, the iteration cap is `max_turn_requests`, a cancel is `cancelled`. A failed
 * run has none: it is answered with a JSON-RPC error (see toRequestError).
 */
export function stopReasonOf(result: AgentResult<unknown>): StopReason | undefined {
  switch (result.exit) {
    case 'task_completion':
    case 'ask_question':
    case 'converse':
      return 'end_turn';
    case 'max_iterations':
      return 'max_turn_requests';
    case 'cancelled':
      return 'cancelled';
    case 'error':
      return undefined;
  }
}

/**
 * What the user reads at the end of a turn, as the agent's message: the task's result (and its artifacts),
 * the question with its suggestions (the next prompt answers it), the conversational message, or at the
 * iteration cap the wrap-up's summary of what was done and what remains. Nothing for a cancel or an error.
 */
export function endingMessage(result: AgentResult<unknown>): string | undefined {
  switch (result.exit) {
    case 'task_completion':
    case 'ask_question':
    case 'converse':
      return exitToolMessage(result.exit, result.payload);
    case 'max_iterations': {
      const limit = `Stopped after ${result.iterations} model calls, the most one prompt may make.`;
      const summary = result.payload ? `\n\n${textOf(result.payload.result)}` : '';
      return `${limit}${summary}\n\nSend "continue" to go on.`;
    }
    case 'cancelled':
    case 'error':
      return undefined;
  }
}

/**
 * What the user reads of an exit tool's call: the task's result (and its artifacts), the question with its
 * numbered suggestions, or the conversational message. Never throws, whatever the payload holds (a stored
 * call's arguments were never validated here).
 */
export function exitToolMessage(name: LoopControlToolName, payload: unknown): string {
  const fields = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  switch (name) {
    case 'task_completion': {
      const artifacts = list(fields.artifacts);
      const listed = artifacts.length > 0 ? `\n\nArtifacts:\n${artifacts.map((item) => `- ${item}`).join('\n')}` : '';
      return `${textOf(fields.result)}${listed}`;
    }
    case 'ask_question': {
      const suggestions = list(fields.suggestions);
      const listed =
        suggestions.length > 0 ? `\n\n${suggestions.map((item, index) => `${index + 1}. ${item}`).join('\n')}` : '';
      return `${textOf(fields.question)}${listed}`;
    }
    case 'converse':
      return textOf(fields.message);
  }
}

// A result of a run with an `output` schema is a value, shown as JSON.
function textOf(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}
