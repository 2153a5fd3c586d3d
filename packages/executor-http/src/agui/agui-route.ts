import { randomUUID } from 'node:crypto';
import type { BaseEvent } from '@ag-ui/core';
import { EventEncoder } from '@ag-ui/encoder';
import type { Context } from 'hono';
import { z } from 'zod';
import { HttpError } from '../errors/http-error.js';
import type { HandlerContext, HandlerEnv } from '../handler/handler-context.js';
import { claimSession, sessionIdSchema } from '../handler/handler-context.js';
import type { RunAttachment } from '../runs/run-manager.js';
import { readJsonBody } from '../security/read-json-body.js';
import { AguiEventMapper } from './agui-event-mapper.js';

/** How often a waiting stream says it is alive. */
const KEEP_ALIVE_MS = 15_000;
const KEEP_ALIVE = ': keep-alive\n\n';

const contentSchema = z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]);

// RunAgentInput, of which the server reads the thread, the run and the last message only: the session's
// history is the store's, never one the client sends. Tools, context and state are the agent's own.
const runAgentInputSchema = z.looseObject({
  threadId: sessionIdSchema,
  runId: z.string().min(1).max(200),
  messages: z
    .array(z.looseObject({ id: z.string().optional(), role: z.string(), content: contentSchema.optional() }))
    .min(1, 'send the new user message as the last message'),
});

/**
 * `POST /api/agui`: starts a run of the thread's session on the last (user) message and streams its AG-UI
 * events as server-sent events until the run ends. A busy session gets a 409 before any event.
 */
export function aguiRoute(context: HandlerContext) {
  return async (c: Context<HandlerEnv>): Promise<Response> => {
    const input = await readJsonBody(c, runAgentInputSchema, 'an AG-UI run (RunAgentInput)');
    const text = newUserMessage(input.messages);
    const principal = c.get('principal');
    await claimSession(context, principal, input.threadId);

    const encoder = new EventEncoder();
    const mapper = new AguiEventMapper({
      threadId: input.threadId,
      runId: input.runId,
      approvalTimeoutMs: context.runs.approvalTimeoutMs,
      createId: randomUUID,
    });
    let attachment: RunAttachment | undefined;
    const bytes = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let open = true;
    // One chunk per agent event, encoded here: a TextEncoderStream and a chunk per AG-UI event cost more
    // than the rest of the route (web streams are slow in Node 20).
    const send = (events: BaseEvent[]) => {
      if (!open || events.length === 0) return;
      let text = '';
      for (const event of events) text += encoder.encodeSSE(event);
      controller.enqueue(bytes.encode(text));
    };
    // A run can wait minutes on an approval without an event; proxies and browsers drop a connection that
    // says nothing for that long, so an SSE comment (which clients skip) goes out while it waits.
    const keepAlive = setInterval(() => {
      if (open) controller.enqueue(bytes.encode(KEEP_ALIVE));
    }, KEEP_ALIVE_MS);
    const stream = new ReadableStream<Uint8Array>({
      start: (streamController) => {
        controller = streamController;
      },
      cancel: () => {
        open = false;
        clearInterval(keepAlive);
        attachment?.detach('dropped');
      },
    });
    send(mapper.started());
    try {
      attachment = await context.runs.start({
        sessionId: input.threadId,
        principal,
        input: text,
        runId: input.runId,
        listener: {
          onEvent: (event) => send(mapper.map(event)),
          onEnd: (end) => {
            if (end.error !== undefined) context.reportError(end.error);
            send(mapper.ended(end));
            clearInterval(keepAlive);
            if (open) controller.close();
            open = false;
          },
        },
      });
    } catch (error) {
      clearInterval(keepAlive);
      throw error;
    }
    return new Response(stream, {
      headers: {
        'Content-Type': encoder.getContentType(),
        'Cache-Control': 'no-cache, no-transform',
        'X-Accel-Buffering': 'no',
      },
    });
  };
}

/** The text of the last message, which must be the user's: the new input of the run. */
function newUserMessage(
  messages: readonly { role: string; content?: z.infer<typeof contentSchema> | undefined }[],
): string {
  const last = messages.at(-1);
  if (last?.role !== 'user') {
    throw new HttpError(
      `The last message is a ${last?.role ?? 'missing'} message: end messages with the new user message; the server keeps the history.`,
      { code: 'invalid_body', statusCode: 400 },
    );
  }
  const content = last.content;
  const text =
    typeof content === 'string'
      ? content
      : (content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');
  if (text.trim() === '') {
    throw new HttpError('The new user message has no text: send the task or the answer as text.', {
      code: 'invalid_body',
      statusCode: 400,
    });
  }
  return text;
}
