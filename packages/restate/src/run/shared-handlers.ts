import type { Message, Usage } from '@agentloop/spec';
import { emptyUsage } from '@agentloop/spec';
import type { ObjectSharedContext } from '@restatedev/restate-sdk';
import { InvocationIdParser, type Serde, serde, TerminalError } from '@restatedev/restate-sdk';
import type { DurableAgentOptions } from '../durable-agent-options.js';
import { checkedSessionRecord } from '../state/durable-session-record.js';
import {
  type PendingApproval,
  type PendingApprovals,
  type PendingDurableQuestion,
  type RunningRecord,
  STATE,
} from '../state/durable-state.js';
import { SESSION_STATE_KEY } from '../state/object-session-store.js';

/** The body of `answer`: an approval decision, or the answer to a question, for the request it names. */
export type DurableAnswer =
  | { requestId: string; decision: 'allow-once' }
  | { requestId: string; decision: 'allow-session'; commandPrefix?: string }
  | { requestId: string; decision: 'deny'; message?: string }
  | { requestId: string; answer: string };

/** What `answer` did. */
export type DurableAnswerResult =
  | { requestId: string; kind: 'approval' }
  /** The question's answer went on as a new `run` of the session: attach to `invocationId` for its result. */
  | { requestId: string; kind: 'question'; invocationId: string };

/** What `state` returns: the session as its last run left it, and what it waits on. */
export interface DurableSessionState {
  sessionId: string;
  /** The conversation, as of the last run's end. */
  messages: Message[];
  /** The token usage of the session's runs, added up. */
  usage: Usage;
  /** True while a run is going (or suspended, waiting on an approval). */
  running: boolean;
  /** The question the last run ended with: `answer` it with its `requestId` (or send the next `run`). */
  pendingQuestion?: PendingDurableQuestion;
  /** The approval requests the running run waits on: `answer` each with its `requestId`. */
  pendingApprovals: PendingApproval[];
}

const DECISIONS = ['allow-once', 'allow-session', 'deny'];

/** `answer`: resolves an approval request's awakeable, or goes on after a question with a new run. */
export async function answerHandler(
  options: DurableAgentOptions,
  context: ObjectSharedContext,
  body: unknown,
): Promise<DurableAnswerResult> {
  const answer = checkedAnswer(body);
  const { requestId } = answer;
  const approvals = (await context.get<PendingApprovals>(STATE.approvals)) ?? {};
  const approval = approvals[requestId];
  if (approval) {
    if (!('decision' in answer)) {
      throw badRequest(
        `"${requestId}" is an approval request: answer it with a "decision" (${DECISIONS.join(', ')}), not an "answer".`,
      );
    }
    const { requestId: _, ...decision } = answer;
    context.resolveAwakeable(approval.awakeableId, decision);
    return { requestId, kind: 'approval' };
  }
  const question = await context.get<PendingDurableQuestion>(STATE.question);
  if (question?.requestId === requestId) {
    if (!('answer' in answer)) {
      throw badRequest(`"${requestId}" is a question: answer it with an "answer" (text), not a "decision".`);
    }
    // The same request id sends the run once, however often the answer is sent again.
    const handle = context.genericSend<string>({
      service: options.name,
      method: 'run',
      key: context.key,
      parameter: answer.answer,
      inputSerde: serde.json as Serde<string>,
      idempotencyKey: `answer:${requestId}`,
    });
    return { requestId, kind: 'question', invocationId: await handle.invocationId };
  }
  throw new TerminalError(
    `No approval request or question "${requestId}" is waiting in session ${context.key}: it was answered already, or its run ended. Call state to see what waits.`,
    { errorCode: 404 },
  );
}

/** `cancel`: cancels the running run, which ends with `cancelled`. False when none was running. */
export async function cancelHandler(context: ObjectSharedContext): Promise<{ cancelled: boolean }> {
  const running = await context.get<RunningRecord>(STATE.run);
  if (!running) return { cancelled: false };
  context.invocation(InvocationIdParser.fromString(running.invocationId)).cancel();
  return { cancelled: true };
}

/** `state`: the conversation and what the session waits on. */
export async function stateHandler(
  options: DurableAgentOptions,
  context: ObjectSharedContext,
): Promise<DurableSessionState> {
  const sessionId = context.key;
  const [approvals, question, running] = await Promise.all([
    context.get<PendingApprovals>(STATE.approvals),
    context.get<PendingDurableQuestion>(STATE.question),
    context.get<RunningRecord>(STATE.run),
  ]);
  const { messages, usage } = await conversationOf(options, context);
  return {
    sessionId,
    messages,
    usage,
    running: running !== null,
    ...(question ? { pendingQuestion: question } : {}),
    pendingApprovals: Object.values(approvals ?? {}),
  };
}

async function conversationOf(
  options: DurableAgentOptions,
  context: ObjectSharedContext,
): Promise<{ messages: Message[]; usage: Usage }> {
  const store = options.sessionStore;
  if (store) {
    return context.run('session:load', async () => {
      try {
        const stored = await store.load(context.key);
        return { messages: stored.messages, usage: stored.usage };
      } catch {
        return { messages: [], usage: emptyUsage() };
      }
    });
  }
  const value = await context.get(SESSION_STATE_KEY);
  if (value === null) return { messages: [], usage: emptyUsage() };
  const record = checkedSessionRecord(context.key, value);
  return { messages: record.messages, usage: record.usage };
}

function checkedAnswer(body: unknown): DurableAnswer {
  const answer = body as Record<string, unknown> | null;
  if (typeof answer !== 'object' || answer === null || typeof answer.requestId !== 'string') {
    throw badRequest(
      'answer takes a JSON object with the "requestId" of the approval request or question, and a "decision" or an "answer".',
    );
  }
  if ('decision' in answer) {
    if (typeof answer.decision !== 'string' || !DECISIONS.includes(answer.decision)) {
      throw badRequest(`"decision" must be one of ${DECISIONS.join(', ')}, not ${JSON.stringify(answer.decision)}.`);
    }
    return answer as DurableAnswer;
  }
  if (typeof answer.answer !== 'string' || answer.answer.trim() === '') {
    throw badRequest('Give a "decision" (for an approval request) or a non-empty "answer" text (for a question).');
  }
  return answer as DurableAnswer;
}

function badRequest(message: string): TerminalError {
  return new TerminalError(message, { errorCode: 400 });
}
