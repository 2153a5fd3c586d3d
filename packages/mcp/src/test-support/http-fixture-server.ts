import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { registerFixtureTools } from './fixture-tools.mjs';

/** A test MCP server on 127.0.0.1: its URL, what it saw, and how to stop it. */
export interface HttpFixtureServer {
  url: string;
  /** Lines the tools noted (a cancelled call). */
  log: string[];
  /** The headers of every request, in order. */
  requestHeaders: IncomingMessage['headers'][];
  close(): Promise<void>;
}

/**
 * Starts an MCP server with the fixture tools on 127.0.0.1, on a free port: Streamable HTTP at `/mcp`
 * (`transport: 'streamable-http'`), or only the older HTTP+SSE transport (`'sse'`: GET `/mcp` opens the
 * event stream, POST `/messages` carries the client's messages, and a POST to `/mcp` gets 405, as from a
 * server that predates Streamable HTTP). `requireToken` refuses requests without that bearer token; `port`
 * takes a given port (a server started again where it was).
 */
export async function startHttpFixtureServer(
  options: { transport?: 'streamable-http' | 'sse'; requireToken?: string; port?: number } = {},
): Promise<HttpFixtureServer> {
  const log: string[] = [];
  const requestHeaders: IncomingMessage['headers'][] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const sseSessions = new Map<string, SSEServerTransport>();
  const mcpServers: McpServer[] = [];
  const newServer = (): McpServer => {
    const server = new McpServer({ name: 'http-fixture', version: '1.0.0' });
    registerFixtureTools(server, (line) => log.push(line));
    mcpServers.push(server);
    return server;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    requestHeaders.push(request.headers);
    if (options.requireToken && request.headers.authorization !== `Bearer ${options.requireToken}`) {
      response.writeHead(401).end('unauthorized');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (options.transport === 'sse') {
      if (request.method === 'GET' && url.pathname === '/mcp') {
        const transport = new SSEServerTransport('/messages', response);
        sseSessions.set(transport.sessionId, transport);
        await newServer().connect(transport);
        return;
      }
      if (request.method === 'POST' && url.pathname === '/messages') {
        const transport = sseSessions.get(url.searchParams.get('sessionId') ?? '');
        if (!transport) response.writeHead(404).end('no session');
        else await transport.handlePostMessage(request, response);
        return;
      }
      response.writeHead(405).end('method not allowed');
      return;
    }
    const sessionId = request.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => {
          if (transport) sessions.set(id, transport);
        },
      });
      await newServer().connect(transport);
    }
    await transport.handleRequest(request, response);
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    log,
    requestHeaders,
    async close() {
      await Promise.all(mcpServers.map((mcp) => mcp.close().catch(() => {})));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
