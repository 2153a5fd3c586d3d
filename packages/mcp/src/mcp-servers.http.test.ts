import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServers, type McpServers } from './mcp-servers.js';
import { callTool, ToolRegistry } from './test-support/call-tool.js';
import { type HttpFixtureServer, startHttpFixtureServer } from './test-support/http-fixture-server.js';
import { waitFor } from './test-support/servers.js';

// MCP servers over HTTP, started in the test on 127.0.0.1 with the SDK's server classes.
const servers: HttpFixtureServer[] = [];
const clients: McpServers[] = [];

async function start(options: Parameters<typeof startHttpFixtureServer>[0] = {}): Promise<HttpFixtureServer> {
  const server = await startHttpFixtureServer(options);
  servers.push(server);
  return server;
}

async function connect(config: Parameters<typeof connectMcpServers>[0], now?: () => number) {
  const mcp = await connectMcpServers(config, now ? { now } : {});
  clients.push(mcp);
  const registry = new ToolRegistry();
  mcp.attach(registry);
  return { mcp, registry };
}

afterEach(async () => {
  for (const mcp of clients.splice(0)) await mcp.close();
  for (const server of servers.splice(0)) await server.close();
});

describe('an MCP server over Streamable HTTP', () => {
  it('lists and calls its tools, sending the configured headers with every request', async () => {
    const server = await start({ requireToken: 'secret-token' });
    const { mcp, registry } = await connect({
      remote: { url: server.url, headers: { Authorization: 'Bearer secret-token' } },
    });
    expect(mcp.status()[0]).toMatchObject({ state: 'ready', transport: 'streamable-http' });
    expect((await callTool(registry, 'remote__echo', { text: 'over http' })).content).toBe('echo: over http');
    expect(server.requestHeaders.length).toBeGreaterThan(1);
    expect(server.requestHeaders.every((headers) => headers.authorization === 'Bearer secret-token')).toBe(true);
  });

  it('reports a refused credential as a failed start, without falling back to SSE', async () => {
    const server = await start({ requireToken: 'secret-token' });
    const { mcp } = await connect({ remote: { url: server.url, headers: { Authorization: 'Bearer wrong' } } });
    const [status] = mcp.status();
    expect(status?.state).toBe('failed');
    expect(status?.error).toMatch(
      /^MCP server "remote" failed to start: the server answered HTTP 401; check the credentials in "headers" \(.*unauthorized\)\.$/,
    );
    expect(status?.transport).toBe('streamable-http');
  });

  it('asks for credentials in "headers", not a login, where a 401 comes with no OAuth metadata', async () => {
    const server = await start({ requireToken: 'secret-token' });
    const { mcp } = await connect({ remote: { url: server.url } });
    const [status] = mcp.status();
    expect(status).toMatchObject({ state: 'failed' });
    expect(status?.auth).toBeUndefined();
    expect(status?.error).toBe(
      'MCP server "remote" failed to start: the server answered HTTP 401 and describes no OAuth authorization server; check the credentials in "headers".',
    );
  });

  it('falls back to the older SSE transport when the server offers only that', async () => {
    const server = await start({ transport: 'sse' });
    const { mcp, registry } = await connect({ legacy: { url: server.url } });
    expect(mcp.status()[0]).toMatchObject({ state: 'ready', transport: 'sse' });
    expect((await callTool(registry, 'legacy__echo', { text: 'over sse' })).content).toBe('echo: over sse');
  });

  it('cancels a call with notifications/cancelled', async () => {
    const server = await start();
    const { registry } = await connect({ remote: { url: server.url } });
    const controller = new AbortController();
    const call = callTool(registry, 'remote__hang', {}, { signal: controller.signal });
    await waitFor(() => server.log.includes('hang started'));
    controller.abort();
    expect(await call).toMatchObject({ status: 'error', code: 'cancelled' });
    await waitFor(() => server.log.includes('hang cancelled'));
  });

  it('stops a hanging call at its timeout', async () => {
    const server = await start();
    const { registry } = await connect({ remote: { url: server.url, toolTimeoutMs: 200 } });
    expect(await callTool(registry, 'remote__hang')).toMatchObject({ status: 'error', code: 'timeout' });
    await waitFor(() => server.log.includes('hang cancelled'));
  });

  it('keeps the tools current when the server announces a change', async () => {
    const server = await start();
    const { registry } = await connect({ remote: { url: server.url } });
    await callTool(registry, 'remote__add_tool', { name: 'fresh' });
    await waitFor(() => registry.has('remote__fresh'));
    expect((await callTool(registry, 'remote__fresh')).content).toBe('fresh ran');
  });

  it('passes a large result on, cut to the model’s limit', async () => {
    const server = await start();
    const { registry } = await connect({ remote: { url: server.url } });
    const outcome = await callTool(registry, 'remote__big', { chars: 2_000_000 });
    expect(outcome.status).toBe('ok');
    expect(outcome.content.startsWith('x'.repeat(100_000))).toBe(true);
    expect(outcome.content.endsWith('(cut: 1900000 more characters)')).toBe(true);
  });

  it('reports an unreachable server in the call’s result and reaches it again after the backoff', async () => {
    let now = 5_000;
    const server = await start();
    const { mcp, registry } = await connect({ remote: { url: server.url } }, () => now);
    const port = Number(new URL(server.url).port);
    await server.close();
    const down = await callTool(registry, 'remote__echo', { text: 'x' });
    expect(down.status).toBe('error');
    expect(down.content).toContain('[server_exited]');
    expect(down.content).toContain('MCP server "remote" could not be reached');
    expect(mcp.status()[0]?.state).toBe('failed');

    await start({ port });
    now += 1_000;
    expect((await callTool(registry, 'remote__echo', { text: 'again' })).content).toBe('echo: again');
    expect(mcp.status()[0]).toMatchObject({ state: 'ready', restarts: 1 });
  });
});
