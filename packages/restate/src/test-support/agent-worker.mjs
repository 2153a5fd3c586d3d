// A worker process of the durable-run tests: serves a durableAgent over HTTP/2 with restate.serve, on
// Node 20 through the opt-in entry. The test process scripts its model and watches its tools and events
// through the control server (CONTROL_URL).
import '@agentloop/restate/node20';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { DefaultAgent } from '@agentloop/core';
import { durableAgent } from '@agentloop/restate';
import { JsonlSessionStore } from '@agentloop/sessions';
import * as restate from '@restatedev/restate-sdk';
import { HttpScriptProvider } from './http-script-provider.mjs';

const controlUrl = process.env.CONTROL_URL;
const worker = process.env.WORKER_ID;
const forwarded = new Set((process.env.EVENT_TYPES ?? '').split(',').filter(Boolean));

async function post(path, body) {
  const response = await fetch(`${controlUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control server ${path}: ${response.status}`);
}

/** Appends a line to a file, once per idempotency key: a call run again after a worker died adds nothing. */
const appendLine = {
  name: 'append_line',
  description: 'Appends a line to a file.',
  parameters: {
    type: 'object',
    properties: { file: { type: 'string' }, line: { type: 'string' } },
    required: ['file', 'line'],
  },
  annotations: { readOnly: false, destructive: false, openWorld: false },
  execute: async ({ file, line }, context) => {
    const key = context.idempotencyKey;
    const done = existsSync(file) && readFileSync(file, 'utf8').includes(`\t${key}\n`);
    if (!done) appendFileSync(file, `${line}\t${key}\n`);
    await post('/tool', {
      sessionId: context.sessionId,
      worker,
      name: 'append_line',
      arguments: { file, line },
      idempotencyKey: key,
    });
    return done ? `already appended: ${line}` : `appended: ${line}`;
  },
};

/** Asks the model for a completion through its context (an MCP server's sampling); returns it, or the refusal. */
const summarize = {
  name: 'summarize',
  description: 'Summarises a text with the model.',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  annotations: { readOnly: true, openWorld: false },
  execute: async ({ text }, context) => {
    try {
      const sampled = await context.sample({ messages: [{ role: 'user', text: `Summarise: ${text}` }], maxTokens: 50 });
      return `summary: ${sampled.text}`;
    } catch (error) {
      return `refused [${error.code}]: ${error.message}`;
    }
  },
};

/**
 * The approval policy of a session, by its name: ask-… asks before each append_line (unless the worker
 * runs with NO_APPROVAL=1); sample-… allows summarize's calls and asks about their sampling requests,
 * sample-allowed-… allows those too.
 */
function approvalOf(sessionId) {
  if (sessionId.startsWith('ask-') && process.env.NO_APPROVAL !== '1') return { approval: 'ask' };
  if (sessionId.startsWith('sample-allowed-')) {
    return { approval: { mode: 'ask', rules: [{ tool: '*summarize', action: 'allow' }] } };
  }
  if (sessionId.startsWith('sample-'))
    return { approval: { mode: 'ask', rules: [{ tool: 'summarize', action: 'allow' }] } };
  return {};
}

const createAgent = ({ sessionId }) =>
  new DefaultAgent(new HttpScriptProvider({ url: controlUrl, sessionId, worker }), {
    sessionId,
    tools: [appendLine, summarize],
    maxIterations: 10,
    ...approvalOf(sessionId),
  });
const onEvent = (event, { sessionId }) =>
  forwarded.has(event.type) ? post('/event', { sessionId, worker, event }) : undefined;

// `assistant` keeps its sessions in its objects' state, `stored` in a JSON lines store (STORE_DIR).
const assistant = durableAgent({ name: 'assistant', createAgent, onEvent });
const stored = durableAgent({
  name: 'stored',
  createAgent,
  onEvent,
  sessionStore: new JsonlSessionStore({ directory: process.env.STORE_DIR }),
});

const port = await restate.serve({ services: [assistant, stored], port: Number(process.env.PORT) });
console.log(`listening on ${port}`);
