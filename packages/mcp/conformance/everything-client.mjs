#!/usr/bin/env node
// The MCP conformance suite's client (`@modelcontextprotocol/conformance client --command ...`), written
// on agentloop's public API only, as an app would use it: `connectMcpServers`, `loginMcpServer` with a
// token store and the `oauth` configuration, and a DefaultAgent (over a ScriptedProvider, in place of a
// model) that calls the server's tools, so that elicitation goes through the agent's events as in an app.
//
// Usage: MCP_CONFORMANCE_SCENARIO=<scenario> node everything-client.mjs <server URL>
// The suite sets MCP_CONFORMANCE_SCENARIO, and MCP_CONFORMANCE_CONTEXT (JSON: client_id, client_secret,
// private_key_pem, ...) for the scenarios that bring pre-registered credentials. Runs against the built
// packages (`npm run build`). Exits 1 with the reason on stderr when the scenario's work failed.

import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DefaultAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { connectMcpServers, loginMcpServer, MemoryTokenStore } from '@agentloop/mcp';

/** The server's name in agentloop: its tools are `conformance__<tool>`. */
const SERVER = 'conformance';

/**
 * A client ID metadata document's URL, as an app that hosts one configures it (the suite's reference
 * client does the same): the client ID where the authorization server takes one (auth/basic-cimd), else
 * the client registers dynamically. The suite's authorization server does not fetch the document. Any
 * `oauth` table, this one or an empty one, tells agentloop that the server uses OAuth, so that a server
 * publishing no metadata at all (auth/2025-03-26-oauth-endpoint-fallback) is `login-needed`; without one
 * such a 401 is taken for a server that wants an API key in `headers`.
 */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** What each scenario calls, after connecting: the tool's name on the server, or none (only list). */
const TOOL_OF = {
  initialize: undefined,
  tools_call: 'add_numbers',
  'elicitation-sep1034-client-defaults': 'test_client_elicitation_defaults',
  'sse-retry': 'test_reconnection',
};
/** Auth scenarios connect, list tools and call this one (the reference client does the same). */
const AUTH_TOOL = 'test-tool';

const ARGUMENTS_OF = { add_numbers: { a: 5, b: 3 } };

/** Plays the person's browser: the suite's authorization server approves at once and redirects to our loopback. */
async function openAuthorizationUrl(url) {
  const approval = await fetch(url, { redirect: 'manual' });
  const location = approval.headers.get('location');
  if (!location) throw new Error(`the authorization server answered ${approval.status}: ${await approval.text()}`);
  const landing = await fetch(location);
  await landing.text();
}

/** The `oauth` configuration an app would write for the scenario, with a temp folder to remove after. */
async function oauthConfigFor(scenario, context) {
  if (scenario === 'auth/client-credentials-basic') {
    return { oauth: { grant: 'client_credentials', clientId: context.client_id, clientSecret: context.client_secret } };
  }
  if (scenario === 'auth/client-credentials-jwt') {
    // An app keeps its key in a file only it reads.
    const folder = await mkdtemp(path.join(tmpdir(), 'agentloop-conformance-'));
    const privateKeyFile = path.join(folder, 'client.pem');
    await writeFile(privateKeyFile, context.private_key_pem, { mode: 0o600 });
    await chmod(privateKeyFile, 0o600);
    return { oauth: { grant: 'client_credentials', clientId: context.client_id, privateKeyFile }, folder };
  }
  if (scenario === 'auth/pre-registration') {
    return { oauth: { clientId: context.client_id, clientSecret: context.client_secret } };
  }
  // AGENTLOOP_CONFORMANCE_NO_CIMD=1: a plain `oauth: {}`, as an app that hosts no metadata document writes
  // it, to measure what the document adds (auth/basic-cimd) beside the OAuth hint any table gives.
  if (process.env.AGENTLOOP_CONFORMANCE_NO_CIMD === '1') return { oauth: {} };
  return { oauth: { clientMetadataUrl: CLIENT_METADATA_URL } };
}

function parseContext() {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (!raw) return {};
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new Error(`MCP_CONFORMANCE_CONTEXT is not JSON (${error.message})`);
  }
}

/**
 * How many browser logins the client makes at most: one to connect, one more for a step-up that needs a
 * person. A server that is never satisfied must not keep a user logging in (auth/scope-retry-limit).
 */
const MAX_LOGINS = 2;

/** Runs an agent whose model calls `tool` once and then completes; resolves with the call's failures. */
async function callThroughAgent(mcp, tool, args) {
  const nativeName = mcp
    .status()
    .flatMap((status) => status.tools)
    .find((summary) => summary.name === tool)?.nativeName;
  if (!nativeName) {
    const offered = mcp.status().flatMap((status) => status.tools.map((summary) => summary.name));
    throw new Error(`the server offers no tool "${tool}" (it offers: ${offered.join(', ') || 'none'})`);
  }
  const agent = new DefaultAgent(
    new ScriptedProvider([
      { toolCalls: [{ name: nativeName, arguments: args }] },
      { toolCalls: [{ name: 'task_completion', arguments: { result: 'done' } }] },
    ]),
    {},
  );
  const detach = mcp.attach(agent.tools);
  // The user accepts every form without filling anything in: the form's defaults must reach the server.
  agent.on('elicitation-requested', (event) => {
    agent.answerElicitation(event.requestId, { action: 'accept', content: {} });
  });
  const failures = [];
  agent.on('tool-result-error', (event) => failures.push(`${event.name}: ${event.content}`));
  try {
    const result = await agent.run(`Call ${tool}.`);
    if (result.exit !== 'task_completion') throw new Error(`the agent's run ended ${result.exit}`);
  } finally {
    detach();
  }
  return failures;
}

async function main() {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  const url = process.argv[2];
  if (!scenario || !url) {
    throw new Error('usage: MCP_CONFORMANCE_SCENARIO=<scenario> node everything-client.mjs <server URL>');
  }
  const auth = scenario.startsWith('auth/');
  const { oauth, folder } = auth ? await oauthConfigFor(scenario, parseContext()) : {};
  const config = { url, ...(oauth ? { oauth } : {}), startupTimeoutMs: 20_000 };
  const store = new MemoryTokenStore();
  const mcp = await connectMcpServers({ [SERVER]: config }, { oauth: { store } });
  let logins = 0;
  // What an app does when a server says it needs a login (`agentloop mcp login`): a browser login, with
  // the scope a step-up asked for where one did (loginMcpServer reads it from the store).
  const loginIfNeeded = async () => {
    const [status] = mcp.status();
    if (status?.auth?.state !== 'login-needed' || logins >= MAX_LOGINS) return false;
    logins += 1;
    await loginMcpServer({ name: SERVER, config, store, openAuthorizationUrl });
    await mcp.reconnect(SERVER);
    return true;
  };
  try {
    while (mcp.status()[0]?.state !== 'ready' && (await loginIfNeeded())) {}
    const [status] = mcp.status();
    if (status?.state !== 'ready') throw new Error(`the server is ${status?.state}: ${status?.error ?? ''}`);
    const tool = auth ? AUTH_TOOL : TOOL_OF[scenario];
    if (!tool) return;
    let failures = await callThroughAgent(mcp, tool, ARGUMENTS_OF[tool] ?? {});
    while (failures.length > 0 && (await loginIfNeeded())) {
      failures = await callThroughAgent(mcp, tool, ARGUMENTS_OF[tool] ?? {});
    }
    if (failures.length > 0) throw new Error(`the tool call failed: ${failures.join('; ')}`);
  } finally {
    await mcp.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`conformance client (${process.env.MCP_CONFORMANCE_SCENARIO}): ${error.message}`);
    process.exit(1);
  },
);
