// A local server that scripts a tool loop: while the conversation holds fewer than `toolSteps` tool
// results it answers with a short text and one `add` tool call, then with a `task_completion` call.
// Bodies follow the vendors' real formats (Anthropic Messages, OpenAI Chat Completions), streamed or not.
import { createServer } from 'node:http';

const frame = (event, data) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

function answerFor(step, toolSteps) {
  if (step > toolSteps)
    return {
      text: 'All steps done.',
      call: { id: `call_${step}`, name: 'task_completion', input: { result: 'done' } },
    };
  return { text: `Step ${step}: adding.`, call: { id: `call_${step}`, name: 'add', input: { a: step, b: 1 } } };
}

function anthropicStream({ text, call }) {
  const input = JSON.stringify(call.input);
  const half = Math.floor(input.length / 2);
  return [
    frame('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_bench',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 500, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    }),
    frame('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    frame('ping', { type: 'ping' }),
    frame('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: text.slice(0, 5) },
    }),
    frame('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: text.slice(5) },
    }),
    frame('content_block_stop', { type: 'content_block_stop', index: 0 }),
    frame('content_block_start', {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    }),
    frame('content_block_delta', {
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '' },
    }),
    frame('content_block_delta', {
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: input.slice(0, half) },
    }),
    frame('content_block_delta', {
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: input.slice(half) },
    }),
    frame('content_block_stop', { type: 'content_block_stop', index: 1 }),
    frame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 40 },
    }),
    frame('message_stop', { type: 'message_stop' }),
  ].join('');
}

function anthropicMessage({ text, call }) {
  return JSON.stringify({
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [
      { type: 'text', text },
      { type: 'tool_use', id: call.id, name: call.name, input: call.input },
    ],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 500, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 40 },
  });
}

function chatStream({ text, call }) {
  const input = JSON.stringify(call.input);
  const half = Math.floor(input.length / 2);
  const chunk = (delta, finishReason = null) => ({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks = [
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: text.slice(0, 5) }),
    chunk({ content: text.slice(5) }),
    chunk({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: input.slice(0, half) } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: input.slice(half) } }] }),
    chunk({}, 'tool_calls'),
    {
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o',
      choices: [],
      usage: { prompt_tokens: 500, completion_tokens: 40, total_tokens: 540 },
    },
  ];
  return `${chunks.map((data) => `data: ${JSON.stringify(data)}\n\n`).join('')}data: [DONE]\n\n`;
}

function chatCompletion({ text, call }) {
  return JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text,
          tool_calls: [
            { id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } },
          ],
        },
        finish_reason: 'tool_calls',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 500, completion_tokens: 40, total_tokens: 540 },
  });
}

function toolResultCount(body) {
  let count = 0;
  for (const message of body.messages ?? []) {
    if (message.role === 'tool') count++;
    else if (message.role === 'user' && Array.isArray(message.content))
      for (const block of message.content) if (block.type === 'tool_result') count++;
  }
  return count;
}

/**
 * Starts the server; `firstBodies` keeps the first request body of each kind for inspection, and with
 * `record` every body goes into `bodies` and its size into `bodyBytes` (to compare what clients send).
 * It takes any number of concurrent keep-alive connections (200 loops at once hold 200 of them).
 */
export async function startScriptedServer({ toolSteps, record = false }) {
  const firstBodies = {};
  const bodies = [];
  const bodyBytes = [];
  const server = createServer(async (request, response) => {
    let text = '';
    for await (const piece of request) text += piece;
    const body = JSON.parse(text);
    const anthropic = request.url.endsWith('/v1/messages');
    firstBodies[anthropic ? 'anthropic' : 'openai'] ??= body;
    if (record) {
      bodies.push(body);
      bodyBytes.push(Buffer.byteLength(text));
    }
    const answer = answerFor(toolResultCount(body) + 1, toolSteps);
    if (body.stream) {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.end(anthropic ? anthropicStream(answer) : chatStream(answer));
    } else {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(anthropic ? anthropicMessage(answer) : chatCompletion(answer));
    }
  });
  // Counted so that a client which drops its connection after each answer (no keep-alive) shows.
  const stats = { connections: 0, requests: 0 };
  server.on('connection', () => stats.connections++);
  server.on('request', () => stats.requests++);
  // No limit on connections (Node sets none), idle keep-alive connections kept for a minute rather than
  // 5 s, no request timeout, and a listen backlog above the 200 connections opened at once.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 61_000;
  server.requestTimeout = 0;
  await new Promise((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 1024 }, resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    firstBodies,
    bodies,
    bodyBytes,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
