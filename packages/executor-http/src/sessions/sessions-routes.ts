import type { SessionInfo, StoredSession } from '@agentloop/core';
import { Hono } from 'hono';
import { z } from 'zod';
import { HttpError } from '../errors/http-error.js';
import type { HandlerContext, HandlerEnv } from '../handler/handler-context.js';
import { parseSessionId, requireOwnSession, sessionNotFound } from '../handler/handler-context.js';
import type { RunSnapshot } from '../runs/run-manager.js';
import { readJsonBody } from '../security/read-json-body.js';

const approvalAnswerSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('allow-once') }),
  z.object({ decision: z.literal('allow-session'), commandPrefix: z.string().min(1).max(1000).optional() }),
  z.object({ decision: z.literal('deny'), message: z.string().max(10_000).optional() }),
]);

const questionAnswerSchema = z.object({ answer: z.string().min(1).max(100_000) });

// What a form's field can hold: the MCP elicitation's primitive values, and a multi-select's strings.
const elicitationValueSchema = z.union([
  z.string().max(100_000),
  z.number().finite(),
  z.boolean(),
  z.array(z.string().max(10_000)).max(1000),
]);

const elicitationAnswerSchema = z.discriminatedUnion('action', [
  // A URL's accept (the user opened the page) carries no fields.
  z.object({ action: z.literal('accept'), content: z.record(z.string(), elicitationValueSchema).default({}) }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
]);

/**
 * The session routes, under `/api/sessions`: the principal's sessions (newest first), one session with
 * what its run waits on, answering an approval, a sub-agent's question or a tool's elicitation by request
 * id, and cancelling.
 */
export function sessionsRoutes(context: HandlerContext): Hono<HandlerEnv> {
  const routes = new Hono<HandlerEnv>();

  routes.get('/', async (c) => {
    const limit = parseLimit(c.req.query('limit'));
    const principalId = c.get('principal').id;
    const stored = await context.owners.list(principalId, limit === undefined ? {} : { limit });
    const listed = new Set(stored.map((info) => info.id));
    // A session whose first run has not committed yet is in no list of the store's: it is the newest.
    const unsaved = context.runs
      .snapshotsOf(principalId)
      .filter((run) => !listed.has(run.sessionId))
      .map(toUnsavedSummary);
    const sessions = [
      ...unsaved,
      ...stored.map((info) => toSessionSummary(info, context.runs.snapshot(info.id))),
    ].slice(0, limit);
    return c.json({ sessions });
  });

  routes.get('/:id', async (c) => {
    const sessionId = parseSessionId(c.req.param('id'));
    await requireOwnSession(context, c.get('principal'), sessionId);
    const run = context.runs.snapshot(sessionId);
    const stored = await loadSession(context, sessionId);
    // A session's first run may not have saved anything yet: it exists once the run started.
    const session = stored ? toSessionSummary(stored.info, run) : run ? toUnsavedSummary(run) : undefined;
    if (!session) throw sessionNotFound(sessionId);
    return c.json({
      session,
      messages: stored?.messages ?? [],
      pendingQuestion: stored?.pendingQuestion ?? null,
      run: run
        ? {
            runId: run.runId,
            startedAt: run.startedAt,
            input: run.input,
            approvals: run.approvals,
            questions: run.questions,
            elicitations: run.elicitations,
          }
        : null,
    });
  });

  routes.post('/:id/approvals/:requestId', async (c) => {
    const sessionId = parseSessionId(c.req.param('id'));
    await requireOwnSession(context, c.get('principal'), sessionId);
    const answer = await readJsonBody(c, approvalAnswerSchema, 'an approval answer');
    const requestId = c.req.param('requestId');
    if (!context.runs.answerApproval(sessionId, requestId, answer))
      throw nothingPending('approval', sessionId, requestId);
    return c.json({ answered: true, requestId, decision: answer.decision });
  });

  routes.post('/:id/questions/:requestId', async (c) => {
    const sessionId = parseSessionId(c.req.param('id'));
    await requireOwnSession(context, c.get('principal'), sessionId);
    const { answer } = await readJsonBody(c, questionAnswerSchema, 'a question answer');
    const requestId = c.req.param('requestId');
    if (!context.runs.answerQuestion(sessionId, requestId, answer))
      throw nothingPending('question', sessionId, requestId);
    return c.json({ answered: true, requestId });
  });

  routes.post('/:id/elicitations/:requestId', async (c) => {
    const sessionId = parseSessionId(c.req.param('id'));
    await requireOwnSession(context, c.get('principal'), sessionId);
    const answer = await readJsonBody(c, elicitationAnswerSchema, 'an elicitation answer');
    const requestId = c.req.param('requestId');
    // Throws the 404 of a request that does not wait, and the 400 of a form with a required field empty.
    context.runs.answerElicitation(sessionId, requestId, answer);
    return c.json({ answered: true, requestId, action: answer.action });
  });

  routes.post('/:id/cancel', async (c) => {
    const sessionId = parseSessionId(c.req.param('id'));
    await requireOwnSession(context, c.get('principal'), sessionId);
    const runId = context.runs.runningRunId(sessionId);
    const cancelled = context.runs.cancel(sessionId);
    return c.json({ cancelled, ...(runId === undefined ? {} : { runId }) });
  });

  return routes;
}

/** What the session list shows of a session. */
function toSessionSummary(info: SessionInfo, run: RunSnapshot | undefined) {
  // A session is titled at its first commit: while its first run goes on, the run's input stands in.
  const title = info.title ?? (run && info.messageCount === 0 ? titleOf(run.input) : undefined);
  return {
    id: info.id,
    title: title ?? null,
    model: info.model ?? null,
    createdAt: info.createdAt.toISOString(),
    updatedAt: info.updatedAt.toISOString(),
    turnCount: info.turnCount,
    messageCount: info.messageCount,
    tokenCount: info.tokenCount,
    running: run?.runId ?? null,
  };
}

/** The summary of a session that runs before its first commit: the store has nothing of it yet. */
function toUnsavedSummary(run: RunSnapshot) {
  const startedAt = run.startedAt.toISOString();
  return {
    id: run.sessionId,
    title: titleOf(run.input) ?? null,
    model: null,
    createdAt: startedAt,
    updatedAt: startedAt,
    turnCount: 0,
    messageCount: 0,
    tokenCount: 0,
    running: run.runId,
  };
}

const MAX_TITLE_CHARS = 80;

/** A title from the first message, as core titles a session at its first commit: one line, 80 characters. */
function titleOf(input: string): string | undefined {
  const text = input.replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  const characters = [...text];
  if (characters.length <= MAX_TITLE_CHARS) return text;
  return `${characters
    .slice(0, MAX_TITLE_CHARS - 1)
    .join('')
    .trimEnd()}…`;
}

async function loadSession(context: HandlerContext, sessionId: string): Promise<StoredSession | undefined> {
  try {
    return await context.sessions.load(sessionId);
  } catch (error) {
    if (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'session_not_found') {
      return undefined;
    }
    throw error;
  }
}

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = Number(value);
  if (Number.isInteger(limit) && limit > 0 && limit <= 1000) return limit;
  throw new HttpError(`limit=${JSON.stringify(value)} is not valid: give a whole number from 1 to 1000.`, {
    code: 'invalid_body',
    statusCode: 400,
  });
}

function nothingPending(kind: 'approval' | 'question', sessionId: string, requestId: string): HttpError {
  return new HttpError(
    `Session ${sessionId} has no pending ${kind} ${requestId}: it was answered, timed out, or its run ended. GET /api/sessions/${sessionId} shows what is pending.`,
    { code: 'not_found', statusCode: 404 },
  );
}
