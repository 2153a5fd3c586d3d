import { DefaultAgent, defineTool } from '@agentloop/core';
import { connectMcpServers, type McpServers } from '@agentloop/mcp';
import type { LLMProvider } from '@agentloop/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicProvider } from './anthropic/anthropic-provider.js';
import { OpenAIProvider } from './openai/openai-provider.js';
import { OpenAIResponsesProvider } from './openai/openai-responses-provider.js';
import {
  anthropicAnswer,
  chatAnswer,
  responsesAnswer,
  type ScriptedAnswer,
  sseResponse,
  testProviderOptions,
  useFixtureServer,
} from './test-support/index.js';
import { forecastMcpServer, isAlive } from './test-support/mcp-forecast-server.js';

// A DefaultAgent calls a real MCP server's tool (a stdio child process) through each provider's wire
// format, against a local server that answers in that vendor's SSE: in native mode by the namespaced name,
// and in XML mode routed by `server_name`. The request after a call must carry the MCP server's result.
const server = useFixtureServer();

/** A local tool with the same name as the server's, so that routing to the wrong one shows. */
const localForecast = defineTool({
  name: 'forecast',
  description: 'The local forecast.',
  parameters: z.object({ city: z.string(), days: z.number() }),
  execute: ({ city }) => `${city}: local forecast`,
});

interface WireFormat {
  name: string;
  answer: (answer: ScriptedAnswer, step: number) => string[];
  provider: (baseURL: string) => LLMProvider;
  /** The tool names a request offered. */
  toolNames: (body: unknown) => string[];
  /** The tool results a request carried, by call id, as text. */
  toolResults: (body: unknown) => Array<{ id: string; content: string }>;
}

type Body = Record<string, unknown>;
const asText = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? '').join('')
      : JSON.stringify(content);

const wireFormats: WireFormat[] = [
  {
    name: 'Anthropic Messages',
    answer: (answer, step) => anthropicAnswer(answer, `msg_${step}`),
    provider: (url) => new AnthropicProvider({ model: 'claude-sonnet-4-6', ...testProviderOptions(url).options }),
    toolNames: (body) => ((body as Body).tools as Array<{ name: string }>).map((tool) => tool.name),
    toolResults: (body) =>
      ((body as Body).messages as Array<{ content: unknown }>)
        .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
        .filter((block: { type: string }) => block.type === 'tool_result')
        .map((block: { tool_use_id: string; content: unknown }) => ({
          id: block.tool_use_id,
          content: asText(block.content),
        })),
  },
  {
    name: 'OpenAI Chat Completions',
    answer: (answer) => chatAnswer(answer),
    provider: (url) =>
      new OpenAIProvider({ model: 'gpt-4o', compatible: false, ...testProviderOptions(`${url}/v1`).options }),
    toolNames: (body) =>
      ((body as Body).tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name),
    toolResults: (body) =>
      ((body as Body).messages as Array<{ role: string; tool_call_id: string; content: unknown }>)
        .filter((message) => message.role === 'tool')
        .map((message) => ({ id: message.tool_call_id, content: asText(message.content) })),
  },
  {
    name: 'OpenAI Responses',
    answer: (answer, step) => responsesAnswer(answer, `resp_${step}`),
    provider: (url) =>
      new OpenAIResponsesProvider({
        model: 'gpt-5.1',
        compatible: false,
        ...testProviderOptions(`${url}/v1`).options,
      }),
    toolNames: (body) => ((body as Body).tools as Array<{ name: string }>).map((tool) => tool.name),
    toolResults: (body) =>
      ((body as Body).input as Array<{ type: string; call_id: string; output: unknown }>)
        .filter((item) => item.type === 'function_call_output')
        .map((item) => ({ id: item.call_id, content: asText(item.output) })),
  },
];

/** Every string anywhere in a request body, one per line: where an XML-mode tool result is, whatever the vendor. */
function allText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(allText).join('\n');
  if (value && typeof value === 'object') return Object.values(value).map(allText).join('\n');
  return '';
}

const xmlCall = (serverName: string, toolName: string, args: unknown) =>
  `<tool>\n${JSON.stringify({ server_name: serverName, tool_name: toolName, arguments: args })}\n</tool>`;

let mcp: McpServers | undefined;
let removeLog: (() => void) | undefined;
afterEach(async () => {
  const pids = mcp?.status().flatMap((status) => (status.pid ? [status.pid] : [])) ?? [];
  await mcp?.close();
  mcp = undefined;
  removeLog?.();
  // The server process ends with the client: none outlives the test.
  expect(pids.filter(isAlive)).toEqual([]);
});

async function agentWithMcp(provider: LLMProvider, toolProtocol: 'native' | 'xml') {
  const forecast = forecastMcpServer();
  removeLog = forecast.remove;
  mcp = await connectMcpServers({ forecast: forecast.config });
  expect(mcp.status()).toMatchObject([{ name: 'forecast', state: 'ready' }]);
  expect(mcp.status()[0]?.pid).toEqual(expect.any(Number));
  const agent = new DefaultAgent(provider, { toolProtocol, tools: [localForecast], maxIterations: 6 });
  mcp.attach(agent.tools);
  return { agent, calls: forecast.calls };
}

describe.each(wireFormats)('DefaultAgent with an MCP server over $name', (wire) => {
  it('calls the MCP tool by its native name and sends its result back', async () => {
    server().reply(
      sseResponse(
        wire.answer(
          { toolCalls: [{ id: 'call_1', name: 'forecast__forecast', arguments: { city: 'Oslo', days: 3 } }] },
          1,
        ),
      ),
      sseResponse(
        wire.answer({ toolCalls: [{ id: 'call_2', name: 'task_completion', arguments: { result: 'sunny' } }] }, 2),
      ),
    );
    const { agent, calls } = await agentWithMcp(wire.provider(server().url), 'native');

    const result = await agent.run('Will it rain in Oslo?');

    expect(result.exit).toBe('task_completion');
    expect(result.payload).toEqual({ result: 'sunny' });
    expect(calls()).toEqual([{ city: 'Oslo', days: 3 }]);
    expect(server().requests).toHaveLength(2);
    expect(wire.toolNames(server().requests[0]?.body)).toEqual(
      expect.arrayContaining(['forecast__forecast', 'forecast', 'task_completion']),
    );
    expect(wire.toolResults(server().requests[1]?.body)).toEqual([
      { id: 'call_1', content: 'Oslo: sunny for 3 days (from MCP)' },
    ]);
  });

  it('routes XML calls by server_name, and answers an unknown server with the servers there are', async () => {
    server().reply(
      sseResponse(wire.answer({ text: xmlCall('forecast', 'forecast', { city: 'Oslo', days: 3 }) }, 1)),
      sseResponse(wire.answer({ text: xmlCall('local', 'forecast', { city: 'Bergen', days: 1 }) }, 2)),
      sseResponse(wire.answer({ text: xmlCall('github', 'forecast', { city: 'Tromsø', days: 2 }) }, 3)),
      sseResponse(wire.answer({ text: xmlCall('local', 'task_completion', { result: 'sunny' }) }, 4)),
    );
    const { agent, calls } = await agentWithMcp(wire.provider(server().url), 'xml');

    const result = await agent.run('Will it rain in Oslo?');

    expect(result.exit).toBe('task_completion');
    expect(result.payload).toEqual({ result: 'sunny' });
    // Only the call naming the server reached it; the local and the unknown-server calls did not.
    expect(calls()).toEqual([{ city: 'Oslo', days: 3 }]);
    const requests = server().requests.map((request) => allText(request.body));
    expect(requests).toHaveLength(4);
    // The XML prompt lists the server's tools under its name.
    expect(requests[0]).toContain('## Server "forecast"');
    expect(requests[0]).toContain('"server_name": "forecast",\n  "tool_name": "forecast"');
    expect(requests[1]).toContain('Oslo: sunny for 3 days (from MCP)');
    expect(requests[2]).toContain('Bergen: local forecast');
    expect(requests[2]).not.toContain('Bergen: sunny');
    expect(requests[3]).toContain(
      'There is no server "github". The servers are "local", "forecast" ("local" is your own tools).',
    );
  });
});
