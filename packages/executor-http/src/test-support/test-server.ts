import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent, ApprovalOption, SessionStore } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { JsonlSessionStore } from '@agentloop/sessions';
import { defineTool, type Tool } from '@agentloop/tools';
import { z } from 'zod';
import type { AgentHandlerOptions } from '../handler/agent-handler-options.js';
import { type AgentHandler, createAgentHandler } from '../handler/create-agent-handler.js';

/** A token long enough for the handler; tests send it. */
export const TEST_TOKEN = 'test-token-0123456789abcdef';

/** A tool that writes a file (only in memory): the approval policy asks before it runs. */
export function editTool(written: string[]): Tool {
  return defineTool({
    name: 'edit_file',
    description: 'Edits a file.',
    parameters: z.object({ path: z.string(), old_text: z.string(), new_text: z.string() }),
    annotations: { readOnly: false, destructive: true, openWorld: false },
    execute: ({ path, new_text }) => {
      written.push(`${path}: ${new_text}`);
      return `edited ${path}`;
    },
  });
}

/** A read-only tool that never needs approval. */
export const readTool: Tool = defineTool({
  name: 'read_file',
  description: 'Reads a file.',
  parameters: z.object({ path: z.string() }),
  annotations: { readOnly: true, openWorld: false },
  execute: ({ path }) => `contents of ${path}`,
});

/** The form `bookTableTool` asks for: every kind of field the page builds, one required without a default. */
export const BOOKING_FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', description: 'As on the booking.', minLength: 2, maxLength: 40 },
    guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12, default: 2 },
    seating: { type: 'string', title: 'Seating', enum: ['inside', 'terrace'], default: 'inside' },
    highChair: { type: 'boolean', title: 'High chair', default: false },
    extras: { type: 'array', title: 'Extras', items: { type: 'string', enum: ['cake', 'flowers', 'candles'] } },
  },
  required: ['name'],
} as const;

/**
 * A read-only tool that asks the user through an elicitation, as an MCP server's tool would: the form
 * above (`{ mode: 'form' }`) or a page to open (`{ mode: 'url' }`), with `message` when given. Returns the
 * answer as JSON.
 */
export const bookTableTool: Tool = defineTool({
  name: 'book_table',
  description: 'Books a table, asking the user for the details.',
  parameters: z.object({ mode: z.enum(['form', 'url']).default('form'), message: z.string().optional() }),
  annotations: { readOnly: true, openWorld: false },
  execute: async ({ mode, message }, context) => {
    if (!context.elicit) return 'no way to ask';
    const result =
      mode === 'url'
        ? await context.elicit({
            mode: 'url',
            server: 'bookings',
            message: message ?? 'Sign in to the booking site.',
            url: 'https://bookings.example.com/sign-in?session=1',
          })
        : await context.elicit({
            mode: 'form',
            server: 'bookings',
            message: message ?? 'Which table?',
            schema: BOOKING_FORM,
          });
    return JSON.stringify(result);
  },
});

/** Asks about every call of a tool that is not read-only. */
export const askForWrites: ApprovalOption = {
  decide: (request) =>
    request.annotations.readOnly
      ? { action: 'allow' }
      : { action: 'ask', reason: `${request.toolName} can change files` },
};

/** A handler over a JSON lines store in a temporary folder, whose agents follow one script per session. */
export interface TestServer {
  handler: AgentHandler;
  store: SessionStore;
  /** The provider of each session, made on its first run and kept for its later ones. */
  providers: Map<string, ScriptedProvider>;
  /** The agents made, in order. */
  agents: Agent[];
  /** Files the edit tool wrote. */
  written: string[];
  /** Listeners the handler added to its agents and has not removed yet, over all agents. */
  agentListeners(): number;
  /** Sends a request with the test token. */
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

/** Options of `testServer`: the script of each session, and the handler's options. */
export interface TestServerOptions extends Partial<Omit<AgentHandlerOptions, 'createAgent' | 'sessions'>> {
  /** The model's responses, by session id (`*` for any session without its own). */
  scripts: Record<string, ScriptStep[]>;
  /** Chunk size of the scripted stream. Default 8. */
  chunkSize?: number;
  /** More tools for each agent (a sub-agent, say), made per agent. */
  tools?: () => Tool[];
}

const listenerCounts = new WeakMap<Agent, number>();

/** Counts the listeners added to an agent through on and onAny, less those removed. */
function countListeners(agent: DefaultAgent): void {
  const add = (delta: number) => listenerCounts.set(agent, (listenerCounts.get(agent) ?? 0) + delta);
  const on = agent.on.bind(agent);
  const off = agent.off.bind(agent);
  const onAny = agent.onAny.bind(agent);
  agent.on = (name, listener) => {
    add(1);
    return on(name, listener);
  };
  agent.off = (name, listener) => {
    add(-1);
    return off(name, listener);
  };
  agent.onAny = (listener) => {
    add(1);
    const stop = onAny(listener);
    let stopped = false;
    return () => {
      if (!stopped) add(-1);
      stopped = true;
      stop();
    };
  };
}

export function testServer(options: TestServerOptions): TestServer {
  const folder = mkdtempSync(join(tmpdir(), 'agentloop-http-'));
  const store = new JsonlSessionStore({ directory: folder });
  const providers = new Map<string, ScriptedProvider>();
  const agents: Agent[] = [];
  const written: string[] = [];
  // Run ids in the order the runs start, so that tests can name the request ids made from them.
  let runs = 0;
  const { scripts, chunkSize, tools, ...handlerOptions } = options;
  const handler = createAgentHandler({
    token: TEST_TOKEN,
    ...handlerOptions,
    sessions: store,
    createAgent: ({ sessionId }) => {
      let provider = providers.get(sessionId);
      if (!provider) {
        const script = scripts[sessionId] ?? scripts['*'];
        if (!script) throw new Error(`no script for session ${sessionId}`);
        provider = new ScriptedProvider(script, { chunkSize: chunkSize ?? 8 });
        providers.set(sessionId, provider);
      }
      const agent = new DefaultAgent(provider, {
        session: { store, id: sessionId },
        approval: askForWrites,
        workspace: folder,
        createId: () => `run-${++runs}`,
      });
      agent.registerTool(readTool).registerTool(editTool(written));
      for (const tool of tools?.() ?? []) agent.registerTool(tool);
      countListeners(agent);
      agents.push(agent);
      return agent;
    },
  });
  return {
    handler,
    store,
    providers,
    agents,
    written,
    agentListeners: () => agents.reduce((sum, agent) => sum + (listenerCounts.get(agent) ?? 0), 0),
    request: (path, init = {}) => {
      const { json, headers, ...rest } = init;
      return handler.fetch(
        new Request(`http://127.0.0.1${path}`, {
          method: json === undefined ? 'GET' : 'POST',
          ...rest,
          headers: {
            authorization: `Bearer ${TEST_TOKEN}`,
            ...(json === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
          ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        }),
      );
    },
    close: async () => {
      await handler.close();
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The AG-UI events of a server-sent events body, parsed, as they arrive. */
export async function* sseEvents(response: Response): AsyncGenerator<Record<string, unknown>> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data !== '') yield JSON.parse(data) as Record<string, unknown>;
      end = buffer.indexOf('\n\n');
    }
  }
}

/** Every event of a server-sent events body, once it ended. */
export async function allEvents(response: Response): Promise<Record<string, unknown>[]> {
  const events: Record<string, unknown>[] = [];
  for await (const event of sseEvents(response)) events.push(event);
  return events;
}

/** A RunAgentInput with one user message. */
export function runInput(threadId: string, text: string, runId = `run-${threadId}`) {
  return {
    threadId,
    runId,
    messages: [{ id: 'm1', role: 'user', content: text }],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  };
}

/** A response's JSON body, loosely typed: the tests compare it with expected values. */
export async function body(response: Response | undefined): Promise<any> {
  if (!response) throw new Error('no response');
  return response.json();
}
