import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer, Message } from '@agentloop/core';
import type { Context } from 'hono';
import { HttpError } from '../errors/http-error.js';
import type { HandlerContext, HandlerEnv } from '../handler/handler-context.js';
import { claimSession, parseSessionId, requireOwnSession, sessionNotFound } from '../handler/handler-context.js';
import type { PendingElicitation } from '../runs/pending-elicitation.js';
import type { RunAttachment } from '../runs/run-manager.js';
import { readJsonBody } from '../security/read-json-body.js';
import { type ChatRequest, chatRequestSchema, parseChatRequest } from './chat-request.js';
import { ChatResponseStream, UI_MESSAGE_STREAM_HEADERS } from './chat-response-stream.js';
import { toUiMessages } from './to-ui-messages.js';
import { UiChunkMapper } from './ui-chunk-mapper.js';
import type { AgentloopElicitationData } from './ui-message-chunk.js';

/**
 * `POST /api/chat`: the AI SDK 6 chat transport's endpoint (`useChat` with a `DefaultChatTransport`). The
 * chat's `id` is the session's. A new user message starts a run on its text and streams it as a UI message
 * stream; the response ends when the run ends, or when it waits on the user's approval. The request that
 * carries the approval responses (the same assistant message, now with `approval-responded` tool parts)
 * answers the waiting approvals and continues that message with the same run's remaining events.
 *
 * A busy session (a second message while a run goes on) gets a 409 that names the run, before any chunk.
 */
export function chatRoute(context: HandlerContext) {
  return async (c: Context<HandlerEnv>): Promise<Response> => {
    const request = parseChatRequest(await readJsonBody(c, chatRequestSchema, 'a chat request'));
    const principal = c.get('principal');
    await claimSession(context, principal, request.sessionId);
    const response =
      request.kind === 'message' ? await startRun(context, c, request) : continueRun(context, c, request);
    return new Response(response.body, { headers: UI_MESSAGE_STREAM_HEADERS });
  };
}

async function startRun(
  context: HandlerContext,
  c: Context<HandlerEnv>,
  request: Extract<ChatRequest, { kind: 'message' }>,
): Promise<ChatResponseStream> {
  const mapper = new UiChunkMapper({ approvalTimeoutMs: context.runs.approvalTimeoutMs });
  const stream = new ChatResponseStream(mapper, { signal: c.req.raw.signal, reportError: context.reportError });
  const runId = randomUUID();
  stream.write(mapper.start({ runId, messageId: runId }));
  // A 409 (busy) or 503 (no agent) rejects here, before the response began: Hono's error handler answers.
  let attachment: RunAttachment;
  try {
    attachment = await context.runs.start({
      sessionId: request.sessionId,
      principal: c.get('principal'),
      input: request.text,
      runId,
      listener: stream,
    });
  } catch (error) {
    stream.abandon();
    throw error;
  }
  stream.attached(attachment);
  return stream;
}

function continueRun(
  context: HandlerContext,
  c: Context<HandlerEnv>,
  request: Extract<ChatRequest, { kind: 'approval-responses' }>,
): ChatResponseStream {
  const { sessionId } = request;
  const runId = context.runs.runningRunId(sessionId);
  if (runId === undefined) {
    throw new HttpError(
      `Session ${sessionId} has no run waiting for these approvals: they timed out and were denied, or the run ended. GET /api/sessions/${sessionId} shows the conversation as it is.`,
      { code: 'not_found', statusCode: 404 },
    );
  }
  // The agent's own approvals that wait, before the answers: a call whose approval is answered here runs
  // on, one the client left unanswered still waits, and the response ends again once nothing else runs.
  const snapshot = context.runs.snapshot(sessionId);
  const pending = (snapshot?.approvals ?? []).filter((approval) => approval.path.length === 0);
  const answered = new Set<string>();
  // Answered before attaching: the run resumes on a later tick, so attaching next misses none of its events.
  for (const response of request.responses) {
    const answer: ApprovalAnswer = response.approved
      ? { decision: 'allow-once' }
      : { decision: 'deny', ...(response.reason === undefined ? {} : { message: response.reason }) };
    if (context.runs.answerApproval(sessionId, response.approvalId, answer)) answered.add(response.approvalId);
  }
  const mapper = new UiChunkMapper({
    knownToolCallIds: request.toolCallIds,
    runningToolCallIds: pending
      .filter((approval) => answered.has(approval.requestId))
      .map((approval) => approval.toolCallId),
    awaitingApprovals: pending.filter((approval) => !answered.has(approval.requestId)),
    pendingElicitations: (snapshot?.elicitations ?? []).map(toElicitationData),
    approvalTimeoutMs: context.runs.approvalTimeoutMs,
  });
  const stream = new ChatResponseStream(mapper, {
    signal: c.req.raw.signal,
    reportError: context.reportError,
    sessionId,
  });
  // No message id: the client continues the message the answers are in, and keeps its id.
  stream.write(mapper.start({ runId }));
  const attachment = context.runs.attach(sessionId, stream);
  if (attachment) stream.attached(attachment);
  else stream.fail('The run ended before the answers arrived.');
  return stream;
}

/** A waiting elicitation as its data part shows it. */
function toElicitationData({ expiresAt, ...pending }: PendingElicitation): AgentloopElicitationData {
  return { ...pending, expiresAt: new Date(expiresAt).toISOString() };
}

/**
 * `GET /api/chat/:id/messages`: the session's conversation as the AI SDK's UI messages (`{ messages }`),
 * for a `useChat` to start from after a reload; a tool call that waits for approval is shown as the SDK's
 * approval request, which the chat answers as usual, and a waiting elicitation as its data part.
 */
export function chatMessagesRoute(context: HandlerContext) {
  return async (c: Context<HandlerEnv>): Promise<Response> => {
    const sessionId = parseSessionId(c.req.param('id') ?? '');
    await requireOwnSession(context, c.get('principal'), sessionId);
    let messages: Message[];
    try {
      messages = (await context.sessions.load(sessionId)).messages;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== 'session_not_found') throw error;
      // A session's first run may not have saved anything yet.
      if (context.runs.runningRunId(sessionId) === undefined) throw sessionNotFound(sessionId);
      messages = [];
    }
    const run = context.runs.snapshot(sessionId);
    // The store has a run's turn only once the run commits it: until then the question being answered
    // comes from the run, so that a chat reloaded mid-run shows it.
    if (run && !endsWithUserText(messages, run.input)) {
      messages = [...messages, { role: 'user', content: [{ type: 'text', text: run.input }] }];
    }
    const waitingApprovals = (run?.approvals ?? []).filter((approval) => approval.path.length === 0);
    return c.json({
      messages: toUiMessages(messages, {
        sessionId,
        waitingApprovals,
        waitingElicitations: (run?.elicitations ?? []).map(toElicitationData),
        ...(run ? { runId: run.runId } : {}),
      }),
    });
  };
}

function endsWithUserText(messages: readonly Message[], text: string): boolean {
  const last = messages.at(-1);
  return last?.role === 'user' && last.content.map((part) => part.text).join('') === text;
}
