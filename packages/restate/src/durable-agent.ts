import * as restate from '@restatedev/restate-sdk';
import type { DurableAgentOptions } from './durable-agent-options.js';
import type { DurableRunResult } from './durable-result.js';
import { durableRun } from './run/durable-run.js';
import {
  answerHandler,
  cancelHandler,
  type DurableAnswerResult,
  type DurableSessionState,
  stateHandler,
} from './run/shared-handlers.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * An agent session as a Restate Virtual Object keyed by session id, which an app serves with the SDK as
 * usual (`restate.serve({ services: [assistant], port })`). Its handlers:
 * - `run` (exclusive: one at a time per session, across all workers): the task as a JSON string body;
 *   returns the agent's result for every exit, as an in-process run does;
 * - `answer` (shared): `{ requestId, decision }` for an approval request, `{ requestId, answer }` for the
 *   question a run ended with (the answer goes on as the session's next `run`);
 * - `cancel` (shared): cancels the running run, which ends with `cancelled`;
 * - `state` (shared): the conversation, and the question or approvals the session waits on.
 *
 * Every model call, tool call, approval answer, id and clock reading of a run is journaled, so a run whose
 * worker died goes on on another worker from its first unfinished step.
 */
export function durableAgent(options: DurableAgentOptions) {
  if (typeof options?.name !== 'string' || !NAME.test(options.name)) {
    throw new TypeError(
      `durableAgent needs a name of letters, digits and "_", not starting with a digit (it is the object's URL path), not ${JSON.stringify(options?.name)}.`,
    );
  }
  if (typeof options.createAgent !== 'function') {
    throw new TypeError(
      `durableAgent "${options.name}" needs createAgent: a function ({ sessionId }) => agent that makes the agent of a run.`,
    );
  }
  return restate.object({
    name: options.name,
    handlers: {
      run: async (context: restate.ObjectContext, task: string): Promise<DurableRunResult<unknown>> =>
        durableRun(options, context, task),
      answer: restate.handlers.object.shared(
        async (context: restate.ObjectSharedContext, body: unknown): Promise<DurableAnswerResult> =>
          answerHandler(options, context, body),
      ),
      cancel: restate.handlers.object.shared(
        async (context: restate.ObjectSharedContext): Promise<{ cancelled: boolean }> => cancelHandler(context),
      ),
      state: restate.handlers.object.shared(
        async (context: restate.ObjectSharedContext): Promise<DurableSessionState> => stateHandler(options, context),
      ),
    },
  });
}
