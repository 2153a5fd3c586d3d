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
 * The ending message as it should follow what the model streamed in the turn's last step (`streamed`).
 * Models often write their answer and then repeat it as the exit tool's text, and a client joins the
 * chunks of a turn into one message: so when the streamed text already ends with that text (white space
 * aside), only what the ending adds is sent (the artifacts, the suggestions), or nothing; otherwise the
 * whole ending, after a blank line when streamed text precedes it, so it reads as a paragraph of its own.
 */
export function endingAfterStreamed(result: AgentResult<unknown>, streamed: string): string | undefined {
  const message = endingMessage(result);
  if (message === undefined) return undefined;
  const text = exitText(result);
  if (text !== undefined && collapsed(text) !== '' && collapsed(streamed).endsWith(collapsed(text))) {
    const rest = message.slice(text.length);
    return rest.trim() === '' ? undefined : rest;
  }
  if (streamed.trim() === '' || streamed.endsWith('\n\n')) return message;
  return `${streamed.endsWith('\n') ? '\n' : '\n\n'}${message}`;
}

// The text an exit tool's message starts with (see exitToolMessage): the result, the question, the message.
function exitText(result: AgentResult<unknown>): string | undefined {
  const fields = (typeof result.payload === 'object' && result.payload !== null ? result.payload : {}) as Record<
    string,
    unknown
  >;
  switch (result.exit) {
    case 'task_completion':
      return textOf(fields.result);
    case 'ask_question':
      return textOf(fields.question);
    case 'converse':
      return textOf(fields.message);
    default:
      return undefined;
  }
}

function collapsed(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
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
