import type { ElicitationRequest, ElicitationResult, ElicitationValue } from '@agentloop/tools';
import { AgentUsageError } from '../errors/index.js';
import type { AgentEventSink } from '../events/index.js';
import { RunRequestIds } from '../journal/run-request-ids.js';
import { applySchemaDefaults, missingRequiredFields } from './apply-schema-defaults.js';

/** The tool call an elicitation is made in, and the run it belongs to. */
export interface ElicitationCall {
  readonly events: AgentEventSink;
  readonly iteration: number;
  /** The run's id: the requests' ids are made from it, so they are unique across runs. */
  readonly runId: string;
  /** The run's signal: a cancel of the run cancels the request. */
  readonly signal: AbortSignal;
  readonly toolCallId: string;
  readonly toolName: string;
}

interface Pending {
  readonly request: ElicitationRequest;
  settle(result: ElicitationResult): void;
}

const DECLINE: ElicitationResult = { action: 'decline' };
const CANCEL: ElicitationResult = { action: 'cancel' };

/**
 * Brings tools' requests for the user's input to whoever runs the agent: each becomes an
 * `elicitation-requested` event, answered with `agent.answerElicitation(requestId, result)`. When nothing
 * listens to that event (the CLI's `run`, an app without an executor) nobody can answer, and the request
 * is declined at once: a run never waits for an answer that cannot come. A cancel of the run, or the
 * asker giving up, cancels it.
 */
export class ElicitationDesk {
  readonly #pending = new Map<string, Pending>();
  readonly #requestIds = new RunRequestIds('elicitation');

  /** Asks the user; resolves with the answer (defaults applied to a form's empty fields). Never rejects. */
  ask(call: ElicitationCall, request: ElicitationRequest): Promise<ElicitationResult> {
    const { events, iteration, runId, signal, toolCallId, toolName } = call;
    if (events.listenerCount('elicitation-requested') === 0) return Promise.resolve(DECLINE);
    const requestId = this.#requestIds.next(runId);
    return new Promise<ElicitationResult>((resolve) => {
      let done = false;
      const finish = (result: ElicitationResult) => {
        if (done) return;
        done = true;
        this.#pending.delete(requestId);
        signal.removeEventListener('abort', onAbort);
        request.signal?.removeEventListener('abort', onAbort);
        events.emit({
          type: 'elicitation-resolved',
          iteration,
          requestId,
          toolCallId,
          name: toolName,
          action: result.action,
        });
        resolve(result);
      };
      const onAbort = () => finish(CANCEL);
      this.#pending.set(requestId, {
        request,
        // As with approvals, an answer given inside a listener takes effect once every listener saw the request.
        settle: (result) => {
          this.#pending.delete(requestId);
          queueMicrotask(() => finish(result));
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      request.signal?.addEventListener('abort', onAbort, { once: true });
      events.emit({
        type: 'elicitation-requested',
        iteration,
        requestId,
        toolCallId,
        name: toolName,
        ...(request.server === undefined ? {} : { server: request.server }),
        message: request.message,
        mode: request.mode,
        ...(request.mode === 'form' ? { schema: request.schema } : { url: request.url }),
      });
      if (signal.aborted || request.signal?.aborted) onAbort();
    });
  }

  /**
   * Answers a waiting `elicitation-requested`. A form's empty fields take the schema's defaults. Throws an
   * AgentUsageError: `unknown_elicitation` for an id that is not waiting (never asked, answered already,
   * or its call ended), `invalid_usage` for an answer that is not one of accept, decline or cancel, or
   * that accepts a form leaving a required field empty.
   */
  answer(requestId: string, result: ElicitationResult): void {
    const pending = this.#pending.get(requestId);
    if (!pending) {
      throw new AgentUsageError(
        `No elicitation request "${requestId}" is waiting: it was answered already, or its tool call ended.`,
        'unknown_elicitation',
      );
    }
    pending.settle(checkedResult(pending.request, result));
  }
}

function checkedResult(request: ElicitationRequest, result: ElicitationResult): ElicitationResult {
  const action = (result as { action?: unknown } | undefined)?.action;
  if (action === 'decline' || action === 'cancel') return { action };
  if (action !== 'accept') {
    throw new AgentUsageError(
      `An elicitation answer's action must be "accept", "decline" or "cancel", got ${JSON.stringify(action)}.`,
      'invalid_usage',
    );
  }
  const given = (result as { content?: Record<string, ElicitationValue> }).content ?? {};
  if (request.mode === 'url') return { action: 'accept', content: {} };
  const content = applySchemaDefaults(request.schema, given);
  const missing = missingRequiredFields(request.schema, content);
  if (missing.length > 0) {
    throw new AgentUsageError(
      `The elicitation answer leaves required field${missing.length > 1 ? 's' : ''} ${missing.map((name) => `"${name}"`).join(', ')} empty: fill ${missing.length > 1 ? 'them' : 'it'} in, or answer with decline or cancel.`,
      'invalid_usage',
      { fields: missing },
    );
  }
  return { action: 'accept', content };
}
