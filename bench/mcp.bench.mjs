// What an MCP tool call costs over a local tool call doing the same work (echoing a short text), each
// run as the loop runs calls (runToolCall: validation, timeout race, result text):
//   local      a local tool, in this process;
//   in-process an MCP server in this process (the SDK's McpServer over its InMemoryTransport, called with
//              the SDK's Client): the protocol's own cost, JSON-RPC encoding and the SDK's validation;
//   stdio      an MCP server in a child process (the fixture server, over @agentloop/mcp's stdio
//              transport): what an agent's call of a stdio server costs.
// Prints a Markdown table of the median and p99 per call, and the overhead over the local call.
//
// Build first: npx turbo run build --filter=@agentloop/mcp
// Run:         node bench/mcp.bench.mjs

import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { connectMcpServers } from '../packages/mcp/dist/index.js';
import { registerFixtureTools } from '../packages/mcp/src/test-support/fixture-tools.mjs';
import { runToolCall, ToolRegistry } from '../packages/tools/dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const WARM_UP = 200;
const CALLS = 2_000;

const context = () => ({
  signal: new AbortController().signal,
  sessionId: 'bench',
  workspace: process.cwd(),
  toolCallId: 'call',
  reportProgress() {},
});
const echoSchema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

async function measure(registry, toolName) {
  const call = (index) =>
    runToolCall(registry, { toolCallId: `c${index}`, toolName, arguments: { text: `hello ${index}` } }, context());
  for (let index = 0; index < WARM_UP; index++) await call(index);
  const times = [];
  for (let index = 0; index < CALLS; index++) {
    const started = performance.now();
    const outcome = await call(index);
    times.push(performance.now() - started);
    if (outcome.status !== 'ok') throw new Error(`${toolName} failed: ${outcome.content}`);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(CALLS / 2)], p99: times[Math.floor(CALLS * 0.99)] };
}

const local = new ToolRegistry([
  { name: 'echo', description: 'Echoes.', parameters: echoSchema, execute: ({ text }) => `echo: ${text}` },
]);

// In-process: the SDK's client and server over a pair of in-memory transports.
const server = new McpServer({ name: 'bench', version: '1.0.0' });
registerFixtureTools(server);
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(clientSide);
const inProcess = new ToolRegistry([
  {
    name: 'bench__echo',
    description: 'Echoes over MCP, in process.',
    parameters: echoSchema,
    execute: async (args, { signal }) => {
      const result = await client.callTool({ name: 'echo', arguments: args }, undefined, { signal });
      return result.content.map((block) => block.text).join('\n');
    },
  },
]);

const mcp = await connectMcpServers({
  fixture: {
    command: process.execPath,
    args: [join(here, '../packages/mcp/src/test-support/stdio-fixture-server.mjs')],
  },
});
const stdio = new ToolRegistry();
mcp.attach(stdio);

try {
  const rows = [
    ['local tool', await measure(local, 'echo')],
    ['MCP, in-process (SDK client and server)', await measure(inProcess, 'bench__echo')],
    ['MCP, stdio (@agentloop/mcp, child process)', await measure(stdio, 'fixture__echo')],
  ];
  const base = rows[0][1];
  console.log(`${CALLS} calls each, after ${WARM_UP} to warm up.\n`);
  console.log('| call | median | p99 | median overhead | p99 overhead |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const [name, { median, p99 }] of rows) {
    const overhead = (value, baseValue) => (name === 'local tool' ? '' : `+${(value - baseValue).toFixed(3)} ms`);
    console.log(
      `| ${name} | ${median.toFixed(3)} ms | ${p99.toFixed(3)} ms | ${overhead(median, base.median)} | ${overhead(p99, base.p99)} |`,
    );
  }
} finally {
  await mcp.close();
  await client.close();
  await server.close();
}
