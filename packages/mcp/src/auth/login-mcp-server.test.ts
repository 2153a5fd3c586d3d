import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loginMcpServer } from './login-mcp-server.js';
import { MemoryTokenStore } from './mcp-token-store.js';

// A server on an older MCP SDK: it knows protocol versions up to 2025-06-18, refuses a request that names
// a newer one (400, as the SDK's transport does), lets the handshake through without a token and asks
// for one from tools/list on.
const KNOWN_VERSIONS = ['2025-06-18', '2025-03-26'];

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function readBody(request: IncomingMessage): Promise<{ method?: string; id?: number }> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text === '' ? {} : JSON.parse(text);
}

async function olderServer(): Promise<string> {
  const listening = createServer((request, response) => {
    void readBody(request).then((message) => {
      const version = request.headers['mcp-protocol-version'];
      if (message.method !== 'initialize' && typeof version === 'string' && !KNOWN_VERSIONS.includes(version)) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32000, message: `Unsupported protocol version: ${version}` },
            id: null,
          }),
        );
        return;
      }
      if (message.method === 'initialize') {
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'probe-session' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: {
              protocolVersion: '2025-06-18',
              capabilities: { tools: {} },
              serverInfo: { name: 'old', version: '1' },
            },
          }),
        );
        return;
      }
      if (message.method === 'notifications/initialized' || request.method === 'DELETE') {
        response.writeHead(202).end();
        return;
      }
      response.writeHead(401, { 'www-authenticate': 'Bearer scope="notes:read"' }).end();
    });
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`;
}

describe('loginMcpServer probe', () => {
  it('does not call a server that wants a token from tools/list on one that needs no login', async () => {
    const url = await olderServer();
    const outcome = await loginMcpServer({
      name: 'old',
      config: { url },
      store: new MemoryTokenStore(),
      openAuthorizationUrl: async () => {},
    }).then(
      (result) => result.outcome,
      () => 'failed to authorize',
    );
    // The probe must speak the version the server negotiated; then it sees the 401 and tries a login.
    expect(outcome).not.toBe('not-needed');
  });
});
