import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpServersConfig } from './config/index.js';
import { connectMcpServers, type McpServers } from './mcp-servers.js';
import { callTool, ToolRegistry } from './test-support/call-tool.js';
import {
  everythingServer,
  filesystemServer,
  fixtureServer,
  isAlive,
  readLog,
  tempDirectory,
  waitFor,
} from './test-support/servers.js';
import { liveChildCount } from './transport/live-children.js';

// Real servers over stdio: the reference servers from npm and the SDK-built fixture server. Every test
// closes what it opened, and afterEach checks by pid that no server process is left.
const opened: McpServers[] = [];
const pids: number[] = [];
const cleanups: (() => void)[] = [];

async function connect(servers: McpServersConfig, options: Parameters<typeof connectMcpServers>[1] = {}) {
  const mcp = await connectMcpServers(servers, options);
  opened.push(mcp);
  for (const status of mcp.status()) if (status.pid) pids.push(status.pid);
  const registry = new ToolRegistry();
  mcp.attach(registry);
  return { mcp, registry };
}

function logFile(): string {
  const temp = tempDirectory();
  cleanups.push(temp.remove);
  return path.join(temp.directory, 'server.log');
}

afterEach(async () => {
  vi.useRealTimers();
  for (const mcp of opened.splice(0)) {
    for (const status of mcp.status()) if (status.pid) pids.push(status.pid);
    await mcp.close();
  }
  for (const cleanup of cleanups.splice(0)) cleanup();
  expect(liveChildCount()).toBe(0);
  expect(pids.splice(0).filter(isAlive)).toEqual([]);
});

describe('the reference servers over stdio', () => {
  it('lists the everything server’s tools as server__tool, with their schemas and annotations', async () => {
    const { mcp, registry } = await connect({ everything: everythingServer() });
    const [status] = mcp.status();
    expect(status?.state).toBe('ready');
    expect(status?.serverInfo?.name).toMatch(/everything/);
    const echo = registry.get('everything__echo');
    expect(echo?.tool.server).toEqual({ name: 'everything', toolName: 'echo' });
    expect(echo?.tool.annotations).toEqual({ readOnly: true, destructive: false, openWorld: false });
    expect(echo?.definition.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } });
    expect(echo?.definition.server).toEqual({ name: 'everything', toolName: 'echo' });
    expect(registry.has('everything__get-tiny-image')).toBe(true);
  });

  it('calls a tool and gives its text to the model', async () => {
    const { registry } = await connect({ everything: everythingServer() });
    const outcome = await callTool(registry, 'everything__echo', { message: 'hello' });
    expect(outcome).toMatchObject({ status: 'ok', content: 'Echo: hello' });
  });

  it('keeps two servers’ tools of the same name apart', async () => {
    const { registry } = await connect({ everything: everythingServer(), fixture: fixtureServer() });
    const [first, second] = await Promise.all([
      callTool(registry, 'everything__echo', { message: 'one' }),
      callTool(registry, 'fixture__echo', { text: 'two' }),
    ]);
    expect(first.content).toBe('Echo: one');
    expect(second.content).toBe('echo: two');
  });

  it('keeps an image as an image, its text describing it by type and size instead of its base64', async () => {
    const { registry } = await connect({ everything: everythingServer() });
    const outcome = await callTool(registry, 'everything__get-tiny-image');
    expect(outcome.status).toBe('ok');
    expect(outcome.content).toMatch(/\[image: image\/png, [\d.]+ (bytes|KB)\]/);
    expect(outcome.content).not.toMatch(/iVBORw0KGgo/);
    const images = outcome.status === 'ok' ? outcome.images : undefined;
    expect(images).toHaveLength(1);
    expect(images?.[0]?.mediaType).toBe('image/png');
    // The PNG signature, base64-encoded: the server's bytes, passed on unchanged.
    expect(images?.[0]?.data).toMatch(/^iVBORw0KGgo/);
  });

  it('passes resource links, embedded resources and structured content on as text', async () => {
    const { registry } = await connect({ everything: everythingServer() });
    const links = await callTool(registry, 'everything__get-resource-links', { count: 2 });
    expect(links.content).toContain('[resource link: Blob Resource 1 <demo://resource/dynamic/blob/1>');
    const embedded = await callTool(registry, 'everything__get-resource-reference', {
      resourceType: 'Text',
      resourceId: 3,
    });
    expect(embedded.content).toMatch(/\[resource <demo:\/\/resource\/dynamic\/text\/3>, text\/plain\]\n.+/);
    const structured = await callTool(registry, 'everything__get-structured-content', { location: 'New York' });
    expect(JSON.parse(structured.content)).toMatchObject({ temperature: expect.any(Number) });
    expect(structured.content).not.toContain('Structured content:');
  });

  it('reports a server’s progress notifications as tool progress', async () => {
    const { registry } = await connect({ everything: everythingServer() });
    const outcome = await callTool(registry, 'everything__trigger-long-running-operation', {
      duration: 0.2,
      steps: 2,
    });
    expect(outcome.status).toBe('ok');
    // The SDK handles a notification a tick after it arrives, and the result at once: a last progress
    // notification sent right before the result may come after the call is over, and is dropped.
    expect(outcome.progress[0]).toEqual({ message: '1 of 2', fraction: 0.5 });
    expect(outcome.progress.slice(1)).toEqual(outcome.progress.length > 1 ? [{ message: '2 of 2', fraction: 1 }] : []);
  });

  it('reads files through the filesystem server, and cuts a large result to the model’s limit', async () => {
    const temp = tempDirectory();
    cleanups.push(temp.remove);
    writeFileSync(path.join(temp.directory, 'small.txt'), 'hello from a file');
    writeFileSync(path.join(temp.directory, 'large.txt'), 'y'.repeat(300_000));
    const { registry } = await connect({ files: filesystemServer(temp.directory) });
    expect(registry.get('files__write_file')?.tool.annotations).toMatchObject({ readOnly: false, destructive: true });
    // Its result carries the text twice (content and structuredContent): the model sees it once.
    const small = await callTool(registry, 'files__read_text_file', { path: path.join(temp.directory, 'small.txt') });
    expect(small.content).toBe('hello from a file');
    const large = await callTool(
      registry,
      'files__read_text_file',
      { path: path.join(temp.directory, 'large.txt') },
      { maxResultChars: 10_000 },
    );
    expect(large.status).toBe('ok');
    expect(large.content).toHaveLength(10_000 + '\n… (cut: 290000 more characters)'.length);
    expect(large.content.endsWith('(cut: 290000 more characters)')).toBe(true);
  });

  it('applies includeTools and excludeTools', async () => {
    const { registry } = await connect({
      everything: { ...everythingServer(), includeTools: ['echo', 'get-sum'], excludeTools: ['get-sum'] },
    });
    const names = registry
      .list()
      .filter((entry) => !entry.loopControl)
      .map((entry) => entry.tool.name);
    // The filters are the server's tools'; read_resource reads its resources, which they leave alone.
    expect(names).toEqual(['everything__echo', 'read_resource']);
  });

  it('leaves a disabled server out', async () => {
    const { mcp } = await connect({ everything: { ...everythingServer(), enabled: false } });
    expect(mcp.status()).toEqual([]);
    expect(mcp.tools).toEqual([]);
  });
});

describe('the fixture server over stdio', () => {
  it('turns an isError result into an error result the model sees', async () => {
    const { registry } = await connect({ fixture: fixtureServer() });
    const outcome = await callTool(registry, 'fixture__fail');
    expect(outcome).toMatchObject({ status: 'error', code: 'tool_failed' });
    expect(outcome.content).toBe('Tool "fixture__fail" failed [tool_error]: the fixture failed on purpose');
  });

  it('passes the server’s progress messages on', async () => {
    const { registry } = await connect({ fixture: fixtureServer() });
    const outcome = await callTool(registry, 'fixture__progress', { steps: 4 });
    expect(outcome.content).toBe('done in 4 steps');
    expect(outcome.progress.slice(0, 3)).toEqual([
      { message: 'step 1', fraction: 0.25 },
      { message: 'step 2', fraction: 0.5 },
      { message: 'step 3', fraction: 0.75 },
    ]);
  });

  it('passes every progress message on, also those that arrive in the same read as the result', async () => {
    // The SDK's own progress handler is dropped on the response, before the notifications read with it
    // are dispatched: over a few fast calls, some lost their last steps.
    const { registry } = await connect({ fixture: fixtureServer() });
    for (let call = 0; call < 8; call++) {
      const outcome = await callTool(registry, 'fixture__progress', { steps: 4 });
      expect(outcome.progress.map((update) => update.message)).toEqual(['step 1', 'step 2', 'step 3', 'step 4']);
    }
  });

  it('registers a tool the server adds (tools/list_changed) in the attached registry', async () => {
    const { mcp, registry } = await connect({ fixture: fixtureServer() });
    let changes = 0;
    mcp.onToolsChanged(() => changes++);
    const echo = registry.get('fixture__echo')?.tool;
    await callTool(registry, 'fixture__add_tool', { name: 'late' });
    await waitFor(() => registry.has('fixture__late'));
    expect(changes).toBe(1);
    expect((await callTool(registry, 'fixture__late')).content).toBe('late ran');
    // Unchanged tools keep their objects: the registry saw only the new one.
    expect(registry.get('fixture__echo')?.tool).toBe(echo);
    expect(mcp.status()[0]?.tools.map((tool) => tool.name)).toContain('late');
  });

  it('cancels a call: the server gets notifications/cancelled and the call ends as cancelled', async () => {
    const log = logFile();
    const { registry } = await connect({ fixture: fixtureServer({ logFile: log }) });
    const controller = new AbortController();
    const call = callTool(registry, 'fixture__hang', {}, { signal: controller.signal });
    await waitFor(() => readLog(log).includes('hang started'));
    controller.abort();
    const outcome = await call;
    expect(outcome).toMatchObject({ status: 'error', code: 'cancelled' });
    await waitFor(() => readLog(log).includes('hang cancelled'));
  });

  it('stops a call that hangs at its timeout, and tells the server', async () => {
    const log = logFile();
    const { registry } = await connect({ fixture: { ...fixtureServer({ logFile: log }), toolTimeoutMs: 300 } });
    expect(registry.get('fixture__hang')?.tool.timeoutMs).toBe(300);
    const outcome = await callTool(registry, 'fixture__hang');
    expect(outcome).toMatchObject({ status: 'error', code: 'timeout' });
    await waitFor(() => readLog(log).includes('hang cancelled'));
    // The server is still up: the next call works.
    expect((await callTool(registry, 'fixture__echo', { text: 'after' })).content).toBe('echo: after');
  });

  it('reports a crash mid-call with the exit code and stderr, and restarts the server after the backoff', async () => {
    let now = 1_000_000;
    const { mcp, registry } = await connect({ fixture: fixtureServer() }, { now: () => now });
    const firstPid = mcp.status()[0]?.pid;
    expect(firstPid).toBeTypeOf('number');
    const crashed = await callTool(registry, 'fixture__crash');
    expect(crashed).toMatchObject({ status: 'error', code: 'tool_failed' });
    expect(crashed.content).toContain('[server_exited]');
    expect(crashed.content).toContain('MCP server "fixture" exited with code 3');
    expect(crashed.content).toContain('fixture: about to crash on purpose');
    expect(mcp.status()[0]).toMatchObject({ state: 'failed', nextStartAt: now + 1_000 });
    await waitFor(() => !isAlive(firstPid as number));

    // Within the backoff the call fails at once, saying when the server comes back.
    const waiting = await callTool(registry, 'fixture__echo', { text: 'too soon' });
    expect(waiting.content).toContain('[server_unavailable]');
    expect(waiting.content).toContain('started again in 1 s');

    now += 1_000;
    const restarted = await callTool(registry, 'fixture__echo', { text: 'back' });
    expect(restarted).toMatchObject({ status: 'ok', content: 'echo: back' });
    const status = mcp.status()[0];
    expect(status).toMatchObject({ state: 'ready', restarts: 1 });
    expect(status?.pid).not.toBe(firstPid);
    pids.push(status?.pid as number);
  });

  it('reports a server that fails to start, with its stderr, and goes on with the others', async () => {
    const { mcp, registry } = await connect({
      broken: fixtureServer({ failStart: true }),
      missing: { command: 'agentloop-no-such-mcp-server' },
      fixture: fixtureServer(),
    });
    const [broken, missing, fixture] = mcp.status();
    expect(broken?.state).toBe('failed');
    expect(broken?.error).toContain('MCP server "broken" failed to start');
    expect(broken?.error).toContain('exited with code 2');
    expect(broken?.error).toContain('fixture: missing FIXTURE_TOKEN, cannot start');
    expect(missing?.error).toBe(
      'MCP server "missing" failed to start: the command "agentloop-no-such-mcp-server" was not found; check "command" and the PATH.',
    );
    expect(fixture?.state).toBe('ready');
    expect((await callTool(registry, 'fixture__echo', { text: 'still here' })).content).toBe('echo: still here');
  });

  it('starts a server that failed to start again by itself after the backoff, and registers its tools', async () => {
    const temp = tempDirectory();
    cleanups.push(temp.remove);
    const ready = path.join(temp.directory, 'ready');
    const { mcp, registry } = await connect(
      { late: fixtureServer({ startWhen: ready }) },
      { restartBackoff: { initialMs: 50, maxMs: 200 } },
    );
    expect(mcp.status()[0]).toMatchObject({ state: 'failed', tools: [] });
    expect(registry.get('late__echo')).toBeUndefined();
    // No call can start it (it has no tools yet): it is tried again on its own, still failing meanwhile.
    await waitFor(() => (mcp.status()[0]?.restarts ?? 0) >= 1);
    writeFileSync(ready, '');
    await waitFor(() => mcp.status()[0]?.state === 'ready');
    const pid = mcp.status()[0]?.pid;
    if (pid) pids.push(pid);
    expect((await callTool(registry, 'late__echo', { text: 'at last' })).content).toBe('echo: at last');
  });

  it('stops trying a server that never started once it is closed', async () => {
    const temp = tempDirectory();
    cleanups.push(temp.remove);
    const ready = path.join(temp.directory, 'ready');
    // The restart backoff runs on a faked clock, moved on well past it once the server is closed: a restart
    // still scheduled would start a process then, however loaded the machine is.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const mcp = await connectMcpServers(
      { late: fixtureServer({ startWhen: ready }) },
      { restartBackoff: { initialMs: 20, maxMs: 20 } },
    );
    expect(mcp.status()[0]).toMatchObject({ state: 'failed' });
    await mcp.close();
    writeFileSync(ready, '');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(mcp.status()[0]).toMatchObject({ state: 'closed', restarts: 0 });
    expect(liveChildCount()).toBe(0);
  });

  it('ends every server process on close', async () => {
    const mcp = await connectMcpServers({ a: fixtureServer(), b: everythingServer() });
    const running = mcp.status().map((status) => status.pid as number);
    expect(running.every(isAlive)).toBe(true);
    await mcp.close();
    expect(running.filter(isAlive)).toEqual([]);
    expect(mcp.status().map((status) => status.state)).toEqual(['closed', 'closed']);
  });
});
