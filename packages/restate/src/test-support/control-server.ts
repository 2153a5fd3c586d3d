import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AgentEvent } from '@agentloop/core';
import type { Message, ModelChunk } from '@agentloop/spec';

/** A model request a worker's provider sent. */
export interface ModelRequestRecord {
  sessionId: string;
  worker: string;
  messages: Message[];
  /** The session and the conversation's length: the same key twice is the same step asked again. */
  key: string;
}

/** A tool call a worker's tool reported. */
export interface ToolCallRecord {
  sessionId: string;
  worker: string;
  name: string;
  arguments: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

/** An event a worker's `onEvent` delivered. */
export interface EventRecord {
  sessionId: string;
  worker: string;
  event: AgentEvent;
}

/** What the model answers: the chunks of one response, or nothing, ever (the test kills the worker). */
export type ModelReply = { chunks: ModelChunk[] } | 'hang';

/** What the tests decide, each as the request arrives; may wait (to kill a worker first). */
export interface ControlHandlers {
  model(request: ModelRequestRecord): ModelReply | Promise<ModelReply>;
  tool?(call: ToolCallRecord): void | Promise<void>;
}

/**
 * The test's side of the worker processes, on 127.0.0.1: the scripted model the workers' provider calls
 * (`POST /model`), the reports of their tools (`POST /tool`) and their `onEvent` (`POST /event`). It
 * records all of it, and lets a test wait for what it needs to see before it kills something.
 */
export class ControlServer {
  readonly modelRequests: ModelRequestRecord[] = [];
  readonly toolCalls: ToolCallRecord[] = [];
  readonly events: EventRecord[] = [];
  handlers: ControlHandlers;
  readonly #server: Server;
  readonly #waiters = new Set<() => void>();
  readonly #hanging = new Set<ServerResponse>();
  url = '';

  private constructor(handlers: ControlHandlers) {
    this.handlers = handlers;
    this.#server = createServer((request, response) => void this.#handle(request, response));
  }

  static async start(handlers: ControlHandlers): Promise<ControlServer> {
    const control = new ControlServer(handlers);
    await new Promise<void>((resolve) => control.#server.listen(0, '127.0.0.1', resolve));
    const address = control.#server.address();
    control.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return control;
  }

  /** Resolves once `condition` holds, checked after each request the server gets. */
  waitFor<T>(condition: () => T | undefined | false): Promise<T> {
    return new Promise((resolve) => {
      const check = () => {
        const value = condition();
        if (value === undefined || value === false) return;
        this.#waiters.delete(check);
        resolve(value);
      };
      this.#waiters.add(check);
      check();
    });
  }

  /**
   * The steps of the sessions `sessionFilter` takes whose model request came more than once, but those in
   * `allowed` (a step in flight when a worker died).
   */
  repeatedSteps(sessionFilter: (sessionId: string) => boolean, allowed: readonly string[] = []): string[] {
    const counts = new Map<string, number>();
    for (const request of this.modelRequests) {
      if (sessionFilter(request.sessionId)) counts.set(request.key, (counts.get(request.key) ?? 0) + 1);
    }
    return [...counts].filter(([key, count]) => count > 1 && !allowed.includes(key)).map(([key]) => key);
  }

  async close(): Promise<void> {
    for (const response of this.#hanging) response.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += chunk;
    const body = JSON.parse(text) as Record<string, unknown>;
    const reply = (value: unknown) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    try {
      if (request.url === '/model') {
        const messages = body.messages as Message[];
        const record: ModelRequestRecord = {
          sessionId: body.sessionId as string,
          worker: body.worker as string,
          messages,
          key: `${body.sessionId}#${messages.length}`,
        };
        this.modelRequests.push(record);
        this.#notify();
        const answer = await this.handlers.model(record);
        if (answer === 'hang') this.#hanging.add(response);
        else reply(answer);
      } else if (request.url === '/tool') {
        const record = body as unknown as ToolCallRecord;
        this.toolCalls.push(record);
        this.#notify();
        await this.handlers.tool?.(record);
        reply({});
      } else if (request.url === '/event') {
        this.events.push(body as unknown as EventRecord);
        this.#notify();
        reply({});
      } else {
        response.writeHead(404).end();
      }
    } catch (error) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: String(error) }));
    }
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}

/** A model response that calls one tool. */
export function toolCallReply(toolCallId: string, toolName: string, input: unknown): ModelReply {
  return {
    chunks: [
      { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) },
      { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } },
      { type: 'finish', reason: 'tool-calls' },
    ] as ModelChunk[],
  };
}

/** How many tool results the conversation has since its last user message: the steps the run has done. */
export function toolResultsSinceInput(messages: readonly Message[]): number {
  let count = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'user') break;
    if (message.role === 'tool') count++;
  }
  return count;
}
