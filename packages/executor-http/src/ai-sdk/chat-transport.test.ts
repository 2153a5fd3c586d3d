import { AgentloopError } from '@agentloop/spec';
import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentloopDataTypes, AgentloopMessageMetadata } from '../index.js';
import { type ListeningServer, listen } from '../test-support/listen.js';
import { TEST_TOKEN, type TestServer, testServer } from '../test-support/test-server.js';

type AgentloopUIMessage = UIMessage<AgentloopMessageMetadata, AgentloopDataTypes>;

/** The state a framework binding (React, Vue) keeps; plain fields here, as the SDK's own tests do. */
class PlainChatState implements ChatState<AgentloopUIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: AgentloopUIMessage[];
  constructor(messages: AgentloopUIMessage[]) {
    this.messages = messages;
  }
  pushMessage = (message: AgentloopUIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: AgentloopUIMessage) => {
    this.messages = this.messages.map((current, at) => (at === index ? message : current));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** `useChat` without React: the SDK's AbstractChat over plain state. */
class Chat extends AbstractChat<AgentloopUIMessage> {
  constructor({ messages, ...init }: ChatInit<AgentloopUIMessage>) {
    super({ ...init, state: new PlainChatState(messages ?? []) });
  }
}

let server: TestServer | undefined;
let listening: ListeningServer | undefined;
afterEach(async () => {
  await listening?.close();
  await server?.close();
  server = undefined;
  listening = undefined;
});

const finish = (result: string) => ({ toolCalls: [{ name: 'task_completion', arguments: { result } }] });
const editCall = { id: 'c1', name: 'edit_file', arguments: { path: 'a.txt', old_text: 'a', new_text: 'b' } };

/**
 * A chat with the SDK's own transport against the test server on a real port, the bearer token in its
 * headers, answering approvals automatically once they all have a response. `finished()` resolves when the
 * next response ends (also one the chat sends by itself).
 */
async function connect(
  id: string,
  messages: AgentloopUIMessage[] = [],
  options: { lastMessageOnly?: boolean; bodies?: unknown[] } = {},
) {
  if (!server) throw new Error('no server');
  listening ??= await listen(server.handler);
  const waiting: (() => void)[] = [];
  const chat = new Chat({
    id,
    messages,
    transport: new DefaultChatTransport({
      api: `${listening.url}/api/chat`,
      headers: { Authorization: `Bearer ${TEST_TOKEN}` },
      // What the README suggests for long chats: the server reads only the last message.
      ...(options.lastMessageOnly
        ? {
            prepareSendMessagesRequest: ({
              id: chatId,
              messages: all,
            }: {
              id: string;
              messages: AgentloopUIMessage[];
            }) => {
              const body = { id: chatId, messages: all.slice(-1) };
              options.bodies?.push(body);
              return { body };
            },
          }
        : {}),
    }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: () => waiting.shift()?.(),
    onError: () => waiting.shift()?.(),
  });
  const finished = () => new Promise<void>((resolve) => waiting.push(resolve));
  return { chat, finished };
}

/** The one tool part of the last message whose type is `tool-<name>`. */
function toolPart(chat: Chat, name: string) {
  const part = chat.lastMessage?.parts.find((candidate) => candidate.type === `tool-${name}`);
  if (!part) throw new Error(`no tool-${name} part`);
  return part as Extract<AgentloopUIMessage['parts'][number], { toolCallId: string }>;
}

const texts = (chat: Chat) =>
  (chat.lastMessage?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : []));

describe('the AI SDK chat transport (useChat without React) over a Node server', () => {
  it('runs a tool loop into one assistant message with the tool’s output and the result', async () => {
    server = testServer({
      scripts: {
        s1: [
          { text: 'Reading.', toolCalls: [{ id: 'c0', name: 'read_file', arguments: { path: 'a.txt' } }] },
          finish('a.txt holds text'),
        ],
      },
    });
    const { chat } = await connect('s1');
    await chat.sendMessage({ text: 'What is in a.txt?' });
    expect(chat.status).toBe('ready');
    expect(chat.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(toolPart(chat, 'read_file')).toMatchObject({
      state: 'output-available',
      input: { path: 'a.txt' },
      output: 'contents of a.txt',
    });
    expect(texts(chat)).toEqual(['Reading.', 'a.txt holds text']);
    expect(chat.lastMessage?.metadata).toMatchObject({ exit: 'task_completion' });
    expect(server.providers.get('s1')?.requests).toHaveLength(2);
  });

  it('asks for approval, and addToolApprovalResponse continues the same run and message', async () => {
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall] }, finish('Fixed a.txt.')] } });
    const { chat, finished } = await connect('s1');
    await chat.sendMessage({ text: 'Fix a.txt' });
    const asked = toolPart(chat, 'edit_file');
    expect(asked).toMatchObject({ state: 'approval-requested', approval: { id: 'approval-run-1-1' } });
    const approval = chat.lastMessage?.parts.find((part) => part.type === 'data-agentloop-approval');
    expect(approval).toMatchObject({ data: { view: { kind: 'edit', title: 'Edit a.txt' } } });

    const done = finished();
    await chat.addToolApprovalResponse({ id: 'approval-run-1-1', approved: true });
    await done;
    expect(chat.status).toBe('ready');
    expect(chat.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(toolPart(chat, 'edit_file')).toMatchObject({ state: 'output-available', output: 'edited a.txt' });
    expect(texts(chat)).toEqual(['Fixed a.txt.']);
    expect(server.written).toEqual(['a.txt: b']);
    expect(server.agents).toHaveLength(1);
    expect(server.handler.runs.runCount).toBe(0);
  });

  it('answers two approvals of one response, each continuing the same run', async () => {
    const second = { id: 'c2', name: 'edit_file', arguments: { path: 'b.txt', old_text: 'a', new_text: 'c' } };
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall, second] }, finish('Fixed both.')] } });
    const { chat, finished } = await connect('s1');
    await chat.sendMessage({ text: 'Fix a.txt and b.txt' });
    const answered: string[] = [];
    for (;;) {
      const waiting = chat.lastMessage?.parts.filter(
        (part): part is Extract<typeof part, { state: 'approval-requested' }> =>
          'state' in part && part.state === 'approval-requested',
      );
      if (!waiting?.length) break;
      const done = finished();
      for (const part of waiting) {
        answered.push(part.approval.id);
        await chat.addToolApprovalResponse({ id: part.approval.id, approved: true });
      }
      await done;
    }
    expect(answered).toEqual(['approval-run-1-1', 'approval-run-1-2']);
    expect(chat.status).toBe('ready');
    expect(chat.messages).toHaveLength(2);
    expect(server.written.sort()).toEqual(['a.txt: b', 'b.txt: c']);
    expect(texts(chat)).toEqual(['Fixed both.']);
  });

  it('denies a call with the reason given, which the model is told', async () => {
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall] }, finish('Left a.txt alone.')] } });
    const { chat, finished } = await connect('s1');
    await chat.sendMessage({ text: 'Fix a.txt' });
    const done = finished();
    await chat.addToolApprovalResponse({ id: 'approval-run-1-1', approved: false, reason: 'Not that file' });
    await done;
    expect(toolPart(chat, 'edit_file')).toMatchObject({ state: 'output-denied' });
    expect(texts(chat)).toEqual(['Left a.txt alone.']);
    expect(server.written).toEqual([]);
    expect(JSON.stringify(server.providers.get('s1')?.lastMessage(1))).toContain('Not that file');
  });

  it('shows a question with its suggestions, and the next message answers it', async () => {
    server = testServer({
      scripts: {
        s1: [
          {
            toolCalls: [
              { name: 'ask_question', arguments: { question: 'Which file?', suggestions: ['a.txt', 'b.txt'] } },
            ],
          },
          finish('Read b.txt.'),
        ],
      },
    });
    const { chat } = await connect('s1');
    await chat.sendMessage({ text: 'Read a file' });
    expect(texts(chat)).toEqual(['Which file?']);
    expect(chat.lastMessage?.parts.find((part) => part.type === 'data-agentloop-question')).toMatchObject({
      data: { question: 'Which file?', suggestions: ['a.txt', 'b.txt'] },
    });
    await chat.sendMessage({ text: 'b.txt' });
    expect(texts(chat)).toEqual(['Read b.txt.']);
    expect(chat.messages).toHaveLength(4);
    expect(JSON.stringify(server.providers.get('s1')?.lastMessage(1))).toContain('b.txt');
  });

  it('reports a failed run as the chat’s error, without the provider’s message', async () => {
    const failure = new AgentloopError('rate limited for key sk-secret', { code: 'rate_limit' });
    server = testServer({ scripts: { s1: [{ text: 'Starting', error: failure }] } });
    const { chat } = await connect('s1');
    await chat.sendMessage({ text: 'Go' });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toBe(
      'The model provider is rate limiting requests: wait a moment and send the message again. (code: rate_limit)',
    );
    expect(texts(chat)).toEqual(['Starting']);
  });

  it('reports a busy session as the chat’s error, naming the busy run', async () => {
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall] }, finish('done')] } });
    const { chat, finished } = await connect('s1');
    await chat.sendMessage({ text: 'Fix a.txt' });
    // The run waits for the approval; a second chat on the same session sends a new message.
    const { chat: other } = await connect('s1');
    await other.sendMessage({ text: 'Something else' });
    expect(other.status).toBe('error');
    expect(other.error?.message).toContain('"code":"session_busy"');
    const done = finished();
    await chat.addToolApprovalResponse({ id: 'approval-run-1-1', approved: true });
    await done;
    expect(server.written).toEqual(['a.txt: b']);
  });

  it('cancels the run when the chat stops (onDisconnect: cancel)', async () => {
    let modelCalled!: () => void;
    const called = new Promise<void>((resolve) => {
      modelCalled = resolve;
    });
    server = testServer({
      scripts: {
        s1: [
          () => {
            modelCalled();
            return { text: 'Working', hang: true };
          },
        ],
      },
    });
    const { chat } = await connect('s1');
    const sent = chat.sendMessage({ text: 'Go' });
    await called;
    const agent = server.agents[0];
    if (!agent) throw new Error('no agent');
    const ended = new Promise<string>((resolve) => agent.once('loop-end', (event) => resolve(event.result.exit)));
    await chat.stop();
    await sent;
    expect(await ended).toBe('cancelled');
    expect(chat.status).toBe('ready');
    expect(server.handler.runs.listenerCount).toBe(0);
  });

  /** What a page reloads the chat with: the session's messages as UI messages. */
  async function reload(sessionId: string): Promise<AgentloopUIMessage[]> {
    if (!listening) throw new Error('not listening');
    const response = await fetch(`${listening.url}/api/chat/${sessionId}/messages`, {
      headers: { Authorization: `Bearer ${TEST_TOKEN}` },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { messages: AgentloopUIMessage[] }).messages;
  }

  it('resumes a session after a reload from GET /api/chat/:id/messages', async () => {
    server = testServer({
      scripts: {
        s1: [
          { toolCalls: [{ id: 'c0', name: 'read_file', arguments: { path: 'a.txt' } }] },
          finish('a.txt holds text'),
          finish('It said: contents of a.txt'),
        ],
      },
    });
    const { chat } = await connect('s1');
    await chat.sendMessage({ text: 'What is in a.txt?' });
    const messages = await reload('s1');
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(messages[1]?.parts).toContainEqual(
      expect.objectContaining({ type: 'tool-read_file', state: 'output-available', output: 'contents of a.txt' }),
    );
    const { chat: reloaded } = await connect('s1', messages);
    await reloaded.sendMessage({ text: 'What did it say?' });
    expect(texts(reloaded)).toEqual(['It said: contents of a.txt']);
    expect(reloaded.messages).toHaveLength(4);
    // The server sent its own history, not the client's: the first turn is in the third request.
    const request = server.providers.get('s1')?.requests[2];
    expect(JSON.stringify(request?.messages)).toContain('What is in a.txt?');
  });

  it('answers an approval that waited across a reload, continuing the same run', async () => {
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall] }, finish('Fixed a.txt.')] } });
    const { chat } = await connect('s1');
    await chat.sendMessage({ text: 'Fix a.txt' });
    const messages = await reload('s1');
    expect(messages.at(-1)?.parts).toContainEqual(
      expect.objectContaining({
        type: 'tool-edit_file',
        state: 'approval-requested',
        approval: { id: 'approval-run-1-1' },
      }),
    );
    const { chat: reloaded, finished } = await connect('s1', messages);
    const done = finished();
    await reloaded.addToolApprovalResponse({ id: 'approval-run-1-1', approved: true });
    await done;
    expect(reloaded.status).toBe('ready');
    expect(toolPart(reloaded, 'edit_file')).toMatchObject({ state: 'output-available', output: 'edited a.txt' });
    expect(texts(reloaded)).toEqual(['Fixed a.txt.']);
    expect(server.written).toEqual(['a.txt: b']);
    expect(server.agents).toHaveLength(1);
  });

  it('works when the transport sends the last message only, as for a long chat', async () => {
    server = testServer({ scripts: { s1: [{ toolCalls: [editCall] }, finish('Fixed a.txt.'), finish('Yes.')] } });
    const bodies: unknown[] = [];
    const { chat, finished } = await connect('s1', [], { lastMessageOnly: true, bodies });
    await chat.sendMessage({ text: 'Fix a.txt' });
    const done = finished();
    await chat.addToolApprovalResponse({ id: 'approval-run-1-1', approved: true });
    await done;
    await chat.sendMessage({ text: 'Done?' });
    expect(texts(chat)).toEqual(['Yes.']);
    expect(server.written).toEqual(['a.txt: b']);
    expect(bodies.map((body) => (body as { messages: unknown[] }).messages.length)).toEqual([1, 1, 1]);
  });
});
