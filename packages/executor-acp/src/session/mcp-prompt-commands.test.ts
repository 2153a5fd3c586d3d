// The editor's MCP servers' prompts as ACP commands: the reference "everything" server (a dev dependency
// of @agentloop/mcp) over stdio, its prompts in available_commands_update and run as `/server:prompt`.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ScriptedProvider } from '@agentloop/core/testing';
import { connectMcpServers } from '@agentloop/mcp';
import { describe, expect, it } from 'vitest';
import { useEditorTest } from '../test-support/editor-test.js';
import { complete, scriptedExecutor } from '../test-support/scripted-executor.js';
import { embedMcpResources } from './mcp-prompt-commands.js';

const requireFromMcp = createRequire(new URL('../../../mcp/package.json', import.meta.url));
const EVERYTHING = requireFromMcp.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const PROMPT_ONLY = fileURLToPath(new URL('../../../mcp/src/test-support/prompt-only-server.mjs', import.meta.url));

const fixture = useEditorTest();

async function openSession(scripts: Parameters<typeof scriptedExecutor>[0]) {
  const { executor, made } = scriptedExecutor(scripts);
  const editor = await fixture.connect(executor);
  const { sessionId } = await editor.agent.request('session/new', {
    cwd: fixture.project.dir,
    mcpServers: [{ name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], env: [] }],
  });
  return { editor, made, sessionId };
}

describe('MCP prompts over ACP', () => {
  it('lists the servers’ prompts as commands, with their arguments as the hint', async () => {
    const { editor, sessionId } = await openSession([[]]);
    const update = await editor.waitForUpdate(
      sessionId,
      (candidate) => candidate.sessionUpdate === 'available_commands_update',
    );
    const commands = 'availableCommands' in update ? update.availableCommands : [];
    expect(commands.map((command) => command.name)).toEqual(
      expect.arrayContaining(['clear', 'tools', 'usage', 'everything:simple-prompt', 'everything:args-prompt']),
    );
    expect(commands.find((command) => command.name === 'everything:args-prompt')).toEqual({
      name: 'everything:args-prompt',
      description: 'A prompt with two arguments, one required and one optional',
      input: { hint: 'city [state]' },
    });
    expect(commands.find((command) => command.name === 'everything:simple-prompt')).toEqual({
      name: 'everything:simple-prompt',
      description: 'A prompt with no arguments',
    });
  });

  it('runs a prompt command: the filled-in prompt is the turn’s input', async () => {
    const { editor, made, sessionId } = await openSession([[complete('Sunny in Lyon.')]]);
    expect(await editor.prompt(sessionId, '/everything:args-prompt Lyon')).toMatchObject({ stopReason: 'end_turn' });
    const provider = made.agents[0]!.provider as ScriptedProvider;
    expect(provider.requests[0]?.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: "What's weather in Lyon?" }],
    });
    expect(editor.messageText(sessionId)).toBe('Sunny in Lyon.');
  });

  it('offers the prompts of a server that has no tools', async () => {
    const { executor, made } = scriptedExecutor([[complete('Done.')]]);
    const editor = await fixture.connect(executor);
    const { sessionId } = await editor.agent.request('session/new', {
      cwd: fixture.project.dir,
      mcpServers: [{ name: 'notes', command: process.execPath, args: [PROMPT_ONLY], env: [] }],
    });
    const update = await editor.waitForUpdate(
      sessionId,
      (candidate) => candidate.sessionUpdate === 'available_commands_update',
    );
    expect('availableCommands' in update ? update.availableCommands.at(-1) : undefined).toEqual({
      name: 'notes:standup',
      description: 'Writes the daily stand-up note.',
    });
    await editor.prompt(sessionId, '/notes:standup');
    expect((made.agents[0]!.provider as ScriptedProvider).requests[0]?.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Write my stand-up note.' }],
    });
  });

  it('answers a missing required argument without the model', async () => {
    const { editor, made, sessionId } = await openSession([[]]);
    expect(await editor.prompt(sessionId, '/everything:args-prompt')).toMatchObject({ stopReason: 'end_turn' });
    expect(editor.messageText(sessionId)).toBe(
      '/everything:args-prompt <city> [state]: the argument city is required.',
    );
    expect((made.agents[0]!.provider as ScriptedProvider).requests).toHaveLength(0);
  });
});

describe('MCP resources over ACP', () => {
  it('embeds the content of a resource link to a resource a server lists', async () => {
    const { editor, made, sessionId } = await openSession([[complete('Read it.')]]);
    const uri = 'demo://resource/static/document/architecture.md';
    await editor.agent.request('session/prompt', {
      sessionId,
      prompt: [
        { type: 'text', text: 'Summarise ' },
        { type: 'resource_link', uri, name: 'architecture.md' },
        { type: 'text', text: ' and ' },
        { type: 'resource_link', uri: 'demo://unlisted', name: 'unlisted' },
      ],
    });
    const provider = made.agents[0]!.provider as ScriptedProvider;
    const message = provider.requests[0]?.messages.at(-1);
    const text = message?.content[0]?.type === 'text' ? message.content[0].text : '';
    expect(text).toMatch(/^Summarise \n<context path="demo:\/\/resource\/static\/document\/architecture\.md">\n# /);
    expect(text.endsWith('</context>\n and @demo://unlisted')).toBe(true);
  });

  it("cuts an embedded resource at its server's maxResourceBytes, not at the 64 KB default", async () => {
    const mcp = await connectMcpServers({
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], maxResourceBytes: 100 },
    });
    try {
      const uri = 'demo://resource/static/document/architecture.md';
      const [block] = await embedMcpResources([{ type: 'resource_link', uri, name: 'architecture.md' }], [mcp]);
      const text = block?.type === 'resource' && 'text' in block.resource ? block.resource.text : '';
      expect(text).toMatch(/^# [^\n]*\n/);
      expect(text).toMatch(
        /\[lines? 1(-\d+)? of the resource's [\d.]+ (bytes|KB) in \d+ lines, cut at 100 bytes; read on with start_line \d+\.\]$/,
      );
      expect(Buffer.byteLength(text.slice(0, text.lastIndexOf('\n[')))).toBeLessThanOrEqual(100);
    } finally {
      await mcp.close();
    }
  });
});
