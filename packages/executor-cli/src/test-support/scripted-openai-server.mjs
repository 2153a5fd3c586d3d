// A local OpenAI-compatible server that answers /v1/chat/completions from a script, streaming in
// OpenAI's SSE format (`data: {chat.completion.chunk}` … `data: [DONE]`), with tool calls streamed as
// deltas by index. Plain JavaScript, so the end-to-end tests and bench/cli.bench.mjs share it.
import { createServer } from 'node:http';

/**
 * Starts the server on 127.0.0.1 on a free port.
 * @param {import('./scripted-openai-server.d.mts').ScriptedReply[]} script
 * @returns {Promise<import('./scripted-openai-server.d.mts').ScriptedOpenAIServer>}
 */
export async function startScriptedOpenAIServer(script = []) {
  const replies = [...script];
  const requests = [];
  const sockets = new Set();
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            error: { message: `no route ${request.method} ${request.url}`, type: 'invalid_request_error' },
          }),
        );
        return;
      }
      const parsed = JSON.parse(body);
      requests.push(parsed);
      const next = replies.shift();
      const reply = typeof next === 'function' ? next(parsed, requests.length) : next;
      if (!reply) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            error: {
              message: `scripted server: no reply left for request #${requests.length}`,
              type: 'invalid_request_error',
            },
          }),
        );
        return;
      }
      if (reply.status) {
        response.writeHead(reply.status, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ error: { message: reply.errorMessage ?? 'scripted error', type: 'invalid_request_error' } }),
        );
        return;
      }
      void stream(response, reply, parsed.model ?? 'test-model', requests.length);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...more) => void replies.push(...more),
    get remaining() {
      return replies.length;
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve(undefined));
      }),
  };
}

/** The chunks of a reply, each a `chat.completion.chunk` payload. */
export function replyChunks(reply, model = 'test-model', number = 1) {
  const base = {
    id: `chatcmpl-${number}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model,
    system_fingerprint: 'fp_scripted',
  };
  const chunk = (delta, finishReason = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks = [chunk({ role: 'assistant', content: '' })];
  for (const piece of split(reply.reasoning ?? '', 12)) chunks.push(chunk({ reasoning_content: piece }));
  for (const piece of split(reply.text ?? '', reply.chunkSize ?? 6)) chunks.push(chunk({ content: piece }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    const id = call.id ?? `call_${number}_${index + 1}`;
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    chunks.push(chunk({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of split(args, 10))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, reply.toolCalls?.length ? 'tool_calls' : 'stop'));
  const usage = reply.usage ?? { prompt_tokens: 100 * number, completion_tokens: 10 + number };
  chunks.push({
    ...base,
    choices: [],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  });
  return chunks;
}

async function stream(response, reply, model, number) {
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  let sentChars = 0;
  let held = false;
  for (const chunk of replyChunks(reply, model, number)) {
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (reply.hold && !held && sentChars >= reply.hold.afterChars) {
      held = true;
      await reply.hold.until.catch(() => undefined);
    }
    if (response.destroyed) return;
    response.write(`data: ${JSON.stringify(chunk)}\n\n`);
    sentChars += chunk.choices?.[0]?.delta?.content?.length ?? 0;
  }
  response.end('data: [DONE]\n\n');
}

function split(text, size) {
  const pieces = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}
