import { afterEach, describe, expect, it } from 'vitest';
import type { McpServersConfig } from './config/index.js';
import { attachedMcpServers, connectMcpServers, type McpServers } from './mcp-servers.js';
import { callTool, ToolRegistry } from './test-support/call-tool.js';
import { contentFixtureServer, everythingServer, isAlive, promptOnlyServer } from './test-support/servers.js';
import { liveChildCount } from './transport/live-children.js';

// Prompts, resources, resource templates and subscriptions of the reference "everything" server, over stdio.
const opened: McpServers[] = [];
const pids: number[] = [];

async function connect(
  servers: McpServersConfig = { everything: everythingServer() },
  options: Parameters<typeof connectMcpServers>[1] = {},
) {
  const mcp = await connectMcpServers(servers, options);
  opened.push(mcp);
  for (const status of mcp.status()) if (status.pid) pids.push(status.pid);
  const registry = new ToolRegistry();
  mcp.attach(registry);
  return { mcp, registry };
}

afterEach(async () => {
  for (const mcp of opened.splice(0)) await mcp.close();
  expect(liveChildCount()).toBe(0);
  expect(pids.splice(0).filter(isAlive)).toEqual([]);
});

const DOCUMENT = 'demo://resource/static/document/architecture.md';

describe('prompts of the everything server', () => {
  it('lists its prompts with their arguments in declared order', async () => {
    const { mcp } = await connect();
    const [status] = mcp.status();
    expect(status?.prompts.map((prompt) => prompt.name)).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt', 'resource-prompt']),
    );
    expect(status?.prompts.find((prompt) => prompt.name === 'args-prompt')).toEqual({
      name: 'args-prompt',
      title: 'Arguments Prompt',
      description: 'A prompt with two arguments, one required and one optional',
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        // The SDK's McpServer drops the description of an optional argument.
        { name: 'state', required: false },
      ],
    });
  });

  it('fills in a prompt with its arguments', async () => {
    const { mcp } = await connect();
    const result = await mcp.getPrompt('everything', 'args-prompt', { city: 'Lyon', state: 'Rhône' });
    expect(result.messages).toEqual([{ role: 'user', text: "What's weather in Lyon, Rhône?" }]);
  });

  it('gives an embedded resource’s text under its URI', async () => {
    const { mcp } = await connect();
    const result = await mcp.getPrompt('everything', 'resource-prompt', { resourceType: 'Text', resourceId: '3' });
    expect(result.messages).toHaveLength(2);
    expect(result.messages[1]?.text).toMatch(
      /^\[resource <demo:\/\/resource\/dynamic\/text\/3>, text\/plain\]\nResource 3: This is a plaintext resource/,
    );
  });

  it('rejects a prompt the server refuses with prompt_error, naming the server and the prompt', async () => {
    const { mcp } = await connect();
    await expect(mcp.getPrompt('everything', 'args-prompt', {})).rejects.toMatchObject({
      code: 'prompt_error',
      serverName: 'everything',
      message: expect.stringMatching(/^MCP server "everything" could not give prompt "args-prompt": .*city/s),
    });
  });

  it('rejects an unknown server with unknown_server, naming the servers there are', async () => {
    const { mcp } = await connect();
    await expect(mcp.getPrompt('docs', 'simple-prompt')).rejects.toMatchObject({
      code: 'unknown_server',
      message: 'No MCP server is named "docs"; the servers are everything.',
    });
  });
});

describe('resources of the everything server', () => {
  it('lists its resources and its resource templates', async () => {
    const { mcp } = await connect();
    const [status] = mcp.status();
    expect(status?.resources).toContainEqual({
      uri: DOCUMENT,
      name: 'architecture.md',
      description: 'Static document file exposed from /docs: architecture.md',
      mimeType: 'text/markdown',
    });
    expect(status?.resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'demo://resource/dynamic/text/{resourceId}',
      'demo://resource/dynamic/blob/{resourceId}',
    ]);
    expect(status?.resourcesSubscribable).toBe(true);
  });

  it('reads a listed resource and one filled into a template', async () => {
    const { mcp } = await connect();
    const [document] = await mcp.readResource('everything', DOCUMENT);
    expect(document).toMatchObject({ uri: DOCUMENT, mimeType: 'text/markdown' });
    expect(document?.text).toContain('# ');
    const [dynamic] = await mcp.readResource('everything', 'demo://resource/dynamic/text/7');
    expect(dynamic?.text).toMatch(/^Resource 7: This is a plaintext resource/);
  });

  it('rejects an unknown URI with resource_error', async () => {
    const { mcp } = await connect();
    await expect(mcp.readResource('everything', 'demo://resource/nowhere')).rejects.toMatchObject({
      code: 'resource_error',
      message: expect.stringMatching(/^MCP server "everything" could not give resource <demo:\/\/resource\/nowhere>: /),
    });
  });

  it('lists again on resources/list_changed, and tells content listeners', async () => {
    const { mcp, registry } = await connect();
    const changed = new Promise<void>((resolve) => mcp.onContentChanged(resolve));
    const data = `data:text/plain;base64,${Buffer.from('hello '.repeat(50)).toString('base64')}`;
    const outcome = await callTool(registry, 'everything__gzip-file-as-resource', { name: 'hello.gz', data });
    expect(outcome.status).toBe('ok');
    await changed;
    const [status] = mcp.status();
    const added = status?.resources.find((resource) => resource.name === 'hello.gz');
    expect(added).toMatchObject({ mimeType: 'application/gzip' });
    // A binary resource that is not an image reaches the model as its type and size, never its base64.
    const read = await callTool(registry, 'read_resource', { server: 'everything', uri: added?.uri });
    expect(read).toMatchObject({ status: 'ok' });
    expect(read.content).toMatch(
      /^\[resource <demo:\/\/resource\/session\/hello\.gz>, application\/gzip, \d+ bytes of binary data\]$/,
    );
  });

  it('calls a subscriber when the server says the resource changed', async () => {
    const { mcp, registry } = await connect();
    const updates: string[] = [];
    let updated!: () => void;
    const first = new Promise<void>((resolve) => (updated = resolve));
    const subscription = await mcp.subscribeResource('everything', DOCUMENT, (uri) => {
      updates.push(uri);
      updated();
    });
    expect(subscription.subscribed).toBe(true);
    // The server's tool starts its simulated updates with one at once for every subscribed URI.
    await callTool(registry, 'everything__toggle-subscriber-updates');
    await first;
    expect(updates[0]).toBe(DOCUMENT);
    await subscription.unsubscribe();
  });
});

describe('the read_resource tool', () => {
  it('is registered read-only while a server has resources, listing them for the model', async () => {
    const { registry } = await connect();
    const entry = registry.get('read_resource');
    expect(entry?.tool.annotations).toEqual({ readOnly: true, destructive: false, openWorld: false });
    expect(entry?.tool.server).toBeUndefined();
    expect(entry?.tool.description).toContain(`- everything: ${DOCUMENT} (architecture.md: text/markdown,`);
    expect(entry?.tool.description).toContain(
      'template demo://resource/dynamic/text/{resourceId} (Dynamic Text Resource',
    );
    expect(entry?.definition.inputSchema).toMatchObject({
      properties: { server: { enum: ['everything'] } },
      required: ['server', 'uri'],
    });
  });

  it('gives a text resource’s text to the model', async () => {
    const { registry } = await connect();
    const outcome = await callTool(registry, 'read_resource', {
      server: 'everything',
      uri: 'demo://resource/dynamic/text/2',
    });
    expect(outcome).toMatchObject({ status: 'ok' });
    expect(outcome.content).toMatch(/^Resource 2: This is a plaintext resource created at /);
  });

  it('cuts a long resource at the server’s maxResourceBytes, and reads on from start_line', async () => {
    const { mcp, registry } = await connect({ everything: { ...everythingServer(), maxResourceBytes: 200 } });
    expect(mcp.maxResourceBytes('everything')).toBe(200);
    const [whole] = await mcp.readResource('everything', DOCUMENT);
    const lines = (whole?.text ?? '').match(/[^\n]*\n|[^\n]+$/g) ?? [];
    const first = await callTool(registry, 'read_resource', { server: 'everything', uri: DOCUMENT });
    const cut =
      /\[lines 1-(\d+) of the resource's [\d.]+ KB in (\d+) lines, cut at 200 bytes; read on with start_line (\d+)\.\]$/.exec(
        first.content,
      );
    expect(cut?.[2]).toBe(String(lines.length));
    const shown = Number(cut?.[1]);
    expect(first.content).toBe(`${lines.slice(0, shown).join('')}${cut?.[0]}`);
    expect(cut?.[3]).toBe(String(shown + 1));

    const next = await callTool(registry, 'read_resource', {
      server: 'everything',
      uri: DOCUMENT,
      start_line: shown + 1,
    });
    expect(next.content.startsWith(lines[shown] ?? '?')).toBe(true);
  });

  it('answers an unknown server with the servers the model may name', async () => {
    const { registry } = await connect();
    const outcome = await callTool(registry, 'read_resource', { server: 'nope', uri: DOCUMENT });
    // The schema's enum refuses the name before the tool runs, and says which names it takes.
    expect(outcome.status).toBe('error');
    expect(outcome.content).toContain('everything');
  });

  it('answers an unknown URI with what the server lists', async () => {
    const { registry } = await connect();
    const outcome = await callTool(registry, 'read_resource', { server: 'everything', uri: 'demo://nowhere' });
    expect(outcome.status).toBe('error');
    expect(outcome.content).toContain('could not give resource <demo://nowhere>');
    expect(outcome.content).toContain(`Read a URI it lists or one filled into its templates: ${DOCUMENT}`);
  });

  it('keeps the read_resource already in a registry when a second server set is attached to it', async () => {
    const { mcp, registry } = await connect();
    const first = registry.get('read_resource')?.tool;
    const second = await connectMcpServers({ content: contentFixtureServer() });
    opened.push(second);
    second.attach(registry);
    expect(registry.get('content__add_prompt')).toBeDefined();
    expect(registry.get('read_resource')?.tool).toBe(first);
    expect(attachedMcpServers(registry)).toEqual([mcp, second]);
  });

  it('is left out when the app asks for none', async () => {
    const mcp = await connectMcpServers({ everything: everythingServer() }, { readResourceTool: false });
    opened.push(mcp);
    expect(mcp.tools.some((tool) => tool.name === 'read_resource')).toBe(false);
  });
});

describe('attachedMcpServers', () => {
  it('finds the servers attached to a registry until they are detached or closed', async () => {
    const { mcp, registry } = await connect();
    expect(attachedMcpServers(registry)).toEqual([mcp]);
    const other = new ToolRegistry();
    const detach = mcp.attach(other);
    expect(attachedMcpServers(other)).toEqual([mcp]);
    detach();
    expect(attachedMcpServers(other)).toEqual([]);
    await mcp.close();
    expect(attachedMcpServers(registry)).toEqual([]);
  });
});

describe('a server’s prompts and resources as the agent shows them', () => {
  it('cleans names and descriptions of escape sequences and bidirectional controls', async () => {
    const { mcp, registry } = await connect({ content: contentFixtureServer() });
    const [status] = mcp.status();
    expect(status?.prompts).toEqual([
      {
        name: 'review',
        title: 'Review',
        description: 'Reviews a file. Careful.',
        arguments: [{ name: 'file', description: 'The file to review', required: true }],
      },
    ]);
    expect(status?.resources).toEqual([
      { uri: 'fixture://notes', name: 'notes', description: 'The team notes.', mimeType: 'text/plain' },
    ]);
    expect(registry.get('read_resource')?.tool.description).toContain(
      '- content: fixture://notes (notes: text/plain, The team notes.)',
    );
    expect((await mcp.getPrompt('content', 'review', { file: 'a.ts' })).messages).toEqual([
      { role: 'user', text: 'Review a.ts now.' },
    ]);
  });

  it('starts a server that offers prompts and no tools, without asking it for tools', async () => {
    const { mcp, registry } = await connect({ notes: promptOnlyServer() });
    const [status] = mcp.status();
    expect(status).toMatchObject({ state: 'ready', tools: [], resources: [] });
    expect(status?.prompts.map((prompt) => prompt.name)).toEqual(['standup']);
    expect(registry.get('read_resource')).toBeUndefined();
    expect((await mcp.getPrompt('notes', 'standup')).messages).toEqual([
      { role: 'user', text: 'Write my stand-up note.' },
    ]);
  });

  it('lists the prompts again on prompts/list_changed', async () => {
    const { mcp, registry } = await connect({ content: contentFixtureServer() });
    const changed = new Promise<void>((resolve) => mcp.onContentChanged(resolve));
    await callTool(registry, 'content__add_prompt', { name: 'summarise' });
    await changed;
    expect(mcp.status()[0]?.prompts.map((prompt) => prompt.name)).toEqual(['review', 'summarise']);
  });
});

describe('subscriptions across a restart', () => {
  it('subscribes again once a server that exited is started again', async () => {
    let clock = 0;
    let exited!: () => void;
    const failed = new Promise<void>((resolve) => (exited = resolve));
    const { mcp, registry } = await connect(
      { everything: everythingServer() },
      { now: () => clock, onStatusChange: (status) => status.state === 'failed' && exited() },
    );
    let updated!: (uri: string) => void;
    const update = new Promise<string>((resolve) => (updated = resolve));
    expect((await mcp.subscribeResource('everything', DOCUMENT, (uri) => updated(uri))).subscribed).toBe(true);
    const pid = mcp.status()[0]?.pid as number;
    process.kill(pid, 'SIGKILL');
    await failed;
    clock += 60_000;
    // The next call starts it again; the new process knows nothing of the subscription until told.
    expect((await callTool(registry, 'everything__echo', { message: 'back' })).content).toBe('Echo: back');
    const restarted = mcp.status()[0]?.pid;
    if (restarted) pids.push(restarted);
    await callTool(registry, 'everything__toggle-subscriber-updates');
    expect(await update).toBe(DOCUMENT);
  });
});
