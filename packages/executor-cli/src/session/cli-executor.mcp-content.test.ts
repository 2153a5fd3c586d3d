import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { createContainer, disposeContainer, resolveAgent } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { describe, expect, it } from 'vitest';
import { mcpSessionPlugins } from '../mcp/mcp-session-plugin.js';
import { MemoryOutput } from '../test-support/index.js';
import { CliExecutor } from './cli-executor.js';

// The reference "everything" MCP server (a dev dependency of @agentloop/mcp) in a session fed lines: its
// prompts as slash commands, its resources as @server:uri mentions.
const requireFromMcp = createRequire(new URL('../../../mcp/package.json', import.meta.url));
const EVERYTHING = requireFromMcp.resolve('@modelcontextprotocol/server-everything/dist/index.js');

const converse = (message: string): ScriptStep => ({ toolCalls: [{ name: 'converse', arguments: { message } }] });

async function session(lines: string[], steps: ScriptStep[], entry: { max_resource_bytes?: number } = {}) {
  const provider = new ScriptedProvider(steps);
  const plugins = await mcpSessionPlugins(
    { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], file: '/config.toml', ...entry } },
    {},
  );
  const container = await createContainer({ provider, plugins });
  const input = new PassThrough();
  const output = new MemoryOutput();
  const errorOutput = new MemoryOutput();
  input.end(lines.map((line) => `${line}\n`).join(''));
  try {
    const status = await new CliExecutor(resolveAgent(container), {
      input,
      output,
      errorOutput,
      environment: {},
      handleSignals: false,
      modelLabel: 'scripted:model-a',
    }).run();
    return { status, text: output.text, errors: errorOutput.text, provider };
  } finally {
    await disposeContainer(container);
  }
}

function lastUserText(provider: ScriptedProvider, request = -1): string {
  const message = provider.requests.at(request)?.messages.findLast((candidate) => candidate.role === 'user');
  const part = message?.content[0];
  return typeof part === 'object' && part && 'text' in part ? String(part.text) : '';
}

describe('MCP prompts as slash commands', () => {
  it('sends the prompt the server filled in as the turn, arguments by position or by name', async () => {
    const { provider, text } = await session(
      ['/everything:args-prompt Lyon', '/everything:args-prompt state=Texas Austin'],
      [converse('Sunny.'), converse('Hot.')],
    );
    expect(lastUserText(provider, 0)).toBe("What's weather in Lyon?");
    expect(lastUserText(provider, 1)).toBe("What's weather in Austin, Texas?");
    expect(text).toContain('Sunny.');
  });

  it('says which required argument is missing, and sends nothing', async () => {
    const { provider, text } = await session(['/everything:args-prompt'], []);
    expect(text).toContain('✗ /everything:args-prompt <city> [state]: the argument city is required.');
    expect(provider.requests).toHaveLength(0);
  });

  it('lists the prompts under /help with their arguments', async () => {
    const { text } = await session(['/help'], []);
    expect(text).toMatch(
      /MCP prompts\n(?:.*\n)*? {2}\/everything:args-prompt <city> \[state\] +A prompt with two arguments/,
    );
    expect(text).toMatch(/ {2}\/everything:simple-prompt +A prompt with no arguments/);
  });

  it('counts the server’s prompts and resources in /mcp', async () => {
    const { text } = await session(['/mcp'], []);
    expect(text).toMatch(/everything {2}ready {2}stdio, \d+ tools, 4 prompts, \d+ resources, 2 resource templates/);
  });
});

describe('MCP resources as @server:uri mentions', () => {
  it('attaches the resource’s content to the turn', async () => {
    const { provider, text } = await session(
      ['Summarise @everything:demo://resource/dynamic/text/4.'],
      [converse('It is resource 4.')],
    );
    expect(text).toContain('↳ attached @everything:demo://resource/dynamic/text/4\n');
    expect(lastUserText(provider)).toMatch(
      /^Summarise @everything:demo:\/\/resource\/dynamic\/text\/4\.\n\nAttached resources:\n<resource server="everything" uri="demo:\/\/resource\/dynamic\/text\/4">\nResource 4: This is a plaintext resource created at .*\n<\/resource>$/,
    );
  });

  it('cuts a resource longer than max_resource_bytes at a line end, and tells the user and the model', async () => {
    const { provider, text } = await session(
      ['Summarise @everything:demo://resource/static/document/architecture.md'],
      [converse('Done.')],
      { max_resource_bytes: 100 },
    );
    expect(text).toMatch(
      /↳ attached @everything:demo:\/\/resource\/static\/document\/architecture\.md \(cut at 100 bytes of [\d.]+ KB: the model can read the rest with read_resource; max_resource_bytes in \[mcp_servers\.everything\] raises the limit\)\n/,
    );
    expect(lastUserText(provider)).toMatch(
      /\n\[lines 1-\d+ of the resource's [\d.]+ KB in \d+ lines, cut at 100 bytes; read on with start_line \d+\.\]\n<\/resource>$/,
    );
  });

  it('leaves a mention of no server as text', async () => {
    const { provider } = await session(['Ask @team:later about it'], [converse('Ok.')]);
    expect(lastUserText(provider)).toBe('Ask @team:later about it');
  });

  it('says why a resource could not be attached, and sends nothing', async () => {
    const { provider, errors } = await session(['Read @everything:demo://nowhere'], []);
    expect(errors).toContain(
      '✗ @everything:demo://nowhere could not be attached: MCP server "everything" could not give resource <demo://nowhere>:',
    );
    expect(provider.requests).toHaveLength(0);
  });
});
