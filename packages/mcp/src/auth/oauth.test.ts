import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpHttpServerConfig } from '../config/index.js';
import { connectMcpServers, type McpServers } from '../mcp-servers.js';
import { callTool, ToolRegistry } from '../test-support/call-tool.js';
import { followAuthorization } from '../test-support/follow-authorization.js';
import {
  type OAuthFixtureOptions,
  type OAuthFixtureServer,
  startOAuthFixtureServer,
} from '../test-support/oauth-fixture-server.mjs';
import { MAX_STEP_UPS } from './authorized-fetch.js';
import { FileTokenStore } from './file-token-store.js';
import { loginMcpServer } from './login-mcp-server.js';
import { logoutMcpServer } from './logout-mcp-server.js';
import { type McpTokenStore, MemoryTokenStore, resourceKey } from './mcp-token-store.js';

// A real authorization server and protected MCP server on 127.0.0.1 (the SDK's server auth pieces), and
// the client's whole OAuth flow against them: discovery, registration, PKCE, scopes, refresh, step-up.
const fixtures: OAuthFixtureServer[] = [];
const clients: McpServers[] = [];

async function fixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixtureServer> {
  const server = await startOAuthFixtureServer(options);
  fixtures.push(server);
  return server;
}

async function connect(servers: Record<string, McpHttpServerConfig>, store: McpTokenStore) {
  const mcp = await connectMcpServers(servers, { oauth: { store } });
  clients.push(mcp);
  const registry = new ToolRegistry();
  mcp.attach(registry);
  return { mcp, registry };
}

async function login(config: McpHttpServerConfig, store: McpTokenStore, scopes?: string[]) {
  const opened: URL[] = [];
  const result = await loginMcpServer({
    name: 'remote',
    config,
    store,
    ...(scopes ? { scopes } : {}),
    openAuthorizationUrl: async (url) => {
      opened.push(url);
      expect(await followAuthorization(url)).toBe(200);
    },
  });
  return { result, opened };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

afterEach(async () => {
  for (const mcp of clients.splice(0)) await mcp.close();
  for (const server of fixtures.splice(0)) await server.close();
});

describe('a browser login (authorization code)', () => {
  it('discovers through WWW-Authenticate, registers, sends PKCE and the resource, and the session uses the token', async () => {
    const server = await fixture({ discovery: 'www-authenticate' });
    const store = new MemoryTokenStore();
    const { result, opened } = await login({ url: server.url }, store);

    expect(result).toMatchObject({ outcome: 'logged-in' });
    expect(result.expiresAt).toBeGreaterThan(Date.now());
    expect(server.seen.metadataRequests).toEqual(['protected-resource', 'oauth']);
    expect(server.seen.registrations).toHaveLength(1);
    const [authorization] = server.seen.authorizations;
    expect(authorization?.resource).toBe(server.url);
    expect(authorization?.codeChallenge).toMatch(/^[\w-]{43}$/);
    expect(opened[0]?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization?.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The SDK's token handler verified the PKCE verifier against that challenge before issuing this.
    expect(server.seen.tokenRequests).toEqual([
      { grant: 'authorization_code', method: 'none', resource: server.url, scope: undefined },
    ]);

    const { mcp, registry } = await connect({ remote: { url: server.url } }, store);
    expect(mcp.status()[0]).toMatchObject({ state: 'ready', auth: { state: 'logged-in' } });
    expect((await callTool(registry, 'remote__whoami')).content).toMatch(/^[\w-]+ $/);
  });

  it('finds the protected-resource metadata at its well-known path when the 401 names none', async () => {
    const server = await fixture({ discovery: 'well-known' });
    await login({ url: server.url }, new MemoryTokenStore());
    expect(server.seen.metadataRequests).toEqual(['protected-resource', 'oauth']);
    expect(server.seen.authorizations[0]?.resource).toBe(server.url);
  });

  it("falls back to the authorization server at the MCP server's origin (the 2025-03-26 specification)", async () => {
    const server = await fixture({ discovery: 'legacy' });
    const { result } = await login({ url: server.url }, new MemoryTokenStore());
    expect(result.outcome).toBe('logged-in');
    expect(server.seen.metadataRequests).toEqual(['oauth']);
  });

  it('reads OpenID Connect discovery where the server has no OAuth metadata', async () => {
    const server = await fixture({ openIdOnly: true });
    const { result } = await login({ url: server.url }, new MemoryTokenStore());
    expect(result.outcome).toBe('logged-in');
    expect(server.seen.metadataRequests).toEqual(['protected-resource', 'openid']);
  });

  it('asks for the scopes the 401 names in WWW-Authenticate', async () => {
    const server = await fixture({ requiredScopes: ['notes:read'] });
    await login({ url: server.url }, new MemoryTokenStore());
    expect(server.seen.authorizations[0]?.scopes).toEqual(['notes:read']);
  });

  it('logs in to a server that lets the handshake through and asks for a token from tools/list on', async () => {
    const server = await fixture({ openHandshake: true, requiredScopes: ['notes:read'] });
    const store = new MemoryTokenStore();
    const { result } = await login({ url: server.url }, store);
    expect(result.outcome).toBe('logged-in');
    expect(server.seen.authorizations.map((authorization) => authorization.scopes)).toEqual([['notes:read']]);
    const { registry } = await connect({ remote: { url: server.url } }, store);
    expect((await callTool(registry, 'remote__whoami')).content).toMatch(/ notes:read$/);
  });

  it('says so when a server needs no login', async () => {
    const { startHttpFixtureServer } = await import('../test-support/http-fixture-server.js');
    const open = await startHttpFixtureServer();
    try {
      const result = await loginMcpServer({
        name: 'open',
        config: { url: open.url },
        store: new MemoryTokenStore(),
        openAuthorizationUrl: () => {
          throw new Error('no browser should open');
        },
      });
      expect(result).toEqual({ outcome: 'not-needed' });
    } finally {
      await open.close();
    }
  });

  it('asks for the scopes the server supports, the configured and given ones, and offline_access where offered', async () => {
    const server = await fixture({ scopesSupported: ['read', 'offline_access'] });
    const { opened } = await login({ url: server.url, oauth: { scopes: ['write'] } }, new MemoryTokenStore(), [
      'admin',
    ]);
    expect(server.seen.authorizations[0]?.scopes?.sort()).toEqual(['admin', 'offline_access', 'read', 'write']);
    expect(opened[0]?.searchParams.get('prompt')).toBe('consent');
  });

  it('uses a pre-registered client, authenticating with HTTP Basic or in the body as the server accepts', async () => {
    const client = {
      client_id: 'pre-registered',
      client_secret: 'its-secret',
      redirect_uris: ['http://127.0.0.1/callback'],
    };
    for (const method of ['client_secret_basic', 'client_secret_post'] as const) {
      const server = await fixture({
        dynamicRegistration: false,
        clients: [client],
        tokenEndpointAuthMethods: [method],
      });
      await login(
        { url: server.url, oauth: { clientId: 'pre-registered', clientSecret: 'its-secret' } },
        new MemoryTokenStore(),
      );
      expect(server.seen.authorizations[0]?.clientId).toBe('pre-registered');
      expect(server.seen.tokenRequests.map((request) => request.method)).toEqual([method]);
    }
  });

  it('gives a client ID metadata document as the client ID where the server takes one, without registering', async () => {
    const port = await freePort();
    const documentUrl = 'https://agentloop.example/client.json';
    const server = await fixture({
      clientIdMetadataDocuments: true,
      metadataDocuments: {
        [documentUrl]: { client_id: documentUrl, redirect_uris: [`http://127.0.0.1:${port}/callback`] },
      },
    });
    await login(
      { url: server.url, oauth: { clientMetadataUrl: documentUrl, redirectPort: port } },
      new MemoryTokenStore(),
    );
    expect(server.seen.registrations).toEqual([]);
    expect(server.seen.authorizations[0]).toMatchObject({
      clientId: documentUrl,
      redirectUri: `http://127.0.0.1:${port}/callback`,
    });
  });

  it('refreshes an expired token with the refresh token, without a login', async () => {
    const server = await fixture();
    const store = new MemoryTokenStore();
    await login({ url: server.url }, store);
    const before = (await store.get(resourceKey(server.url)))?.tokens?.access_token;
    server.expireTokens();

    const { mcp, registry } = await connect({ remote: { url: server.url } }, store);
    expect(mcp.status()[0]?.state).toBe('ready');
    expect((await callTool(registry, 'remote__whoami')).status).toBe('ok');
    expect(server.seen.tokenRequests.map((request) => request.grant)).toEqual(['authorization_code', 'refresh_token']);
    const after = await store.get(resourceKey(server.url));
    expect(after?.tokens?.access_token).not.toBe(before);
    expect(after?.tokens?.refresh_token).toMatch(/^rt-/);
  });

  it('shows the expiry of a token refreshed during a call, not the one it had at the start', async () => {
    const server = await fixture();
    const store = new MemoryTokenStore();
    await login({ url: server.url }, store);
    // The store says the token expired long ago, while the server still takes it: the start needs no refresh.
    await store.set(server.url, { ...(await store.get(server.url)), expiresAt: 1 });
    const { mcp, registry } = await connect({ remote: { url: server.url } }, store);
    expect(mcp.status()[0]?.auth).toEqual({ state: 'logged-in', expiresAt: 1 });

    server.expireTokens();
    expect((await callTool(registry, 'remote__whoami')).status).toBe('ok');
    expect(mcp.status()[0]?.auth?.expiresAt).toBeGreaterThan(Date.now());
  });

  it('goes on with a token refreshed during a call that the store cannot keep, and its status says so', async () => {
    const server = await fixture();
    const store = new MemoryTokenStore();
    await login({ url: server.url }, store);
    const { mcp, registry } = await connect({ remote: { url: server.url } }, store);
    store.set = async () => {
      throw new Error('EROFS: read-only file system');
    };

    server.expireTokens();
    expect((await callTool(registry, 'remote__whoami')).status).toBe('ok');
    expect((await callTool(registry, 'remote__whoami')).status).toBe('ok');

    expect(server.seen.tokenRequests.map((request) => request.grant)).toEqual(['authorization_code', 'refresh_token']);
    expect(mcp.status()[0]?.auth?.state).toBe('logged-in');
    expect(mcp.status()[0]?.auth?.tokenStoreError).toBe(
      'MCP server "remote": the refreshed tokens could not be stored (EROFS: read-only file system); this process goes on with them, but another run may need a new login.',
    );
  });

  it('reports login-needed in a session that has no token, without registering a client', async () => {
    const server = await fixture();
    const { mcp } = await connect({ remote: { url: server.url } }, new MemoryTokenStore());
    expect(mcp.status()[0]).toMatchObject({
      state: 'failed',
      auth: { state: 'login-needed' },
      error: 'MCP server "remote" needs you to log in (OAuth).',
    });
    expect(server.seen.registrations).toEqual([]);
  });

  it('registers no client in a session with a client ID metadata document the server does not take', async () => {
    const server = await fixture();
    const config = { url: server.url, oauth: { clientMetadataUrl: 'https://app.example/client.json' } };
    const { mcp } = await connect({ remote: config }, new MemoryTokenStore());
    expect(mcp.status()[0]?.auth).toEqual({ state: 'login-needed' });
    expect(server.seen.registrations).toEqual([]);
  });

  it('reports login-needed, not a credential problem, for a server without metadata when OAuth is configured', async () => {
    const { startHttpFixtureServer } = await import('../test-support/http-fixture-server.js');
    const server = await startHttpFixtureServer({ requireToken: 'secret-token' });
    try {
      const config = { url: server.url, oauth: { clientMetadataUrl: 'https://app.example/client.json' } };
      const { mcp } = await connect({ remote: config }, new MemoryTokenStore());
      expect(mcp.status()[0]).toMatchObject({
        state: 'failed',
        auth: { state: 'login-needed' },
        error: 'MCP server "remote" needs you to log in (OAuth).',
      });
    } finally {
      await server.close();
    }
  });

  it('reports login-needed for a server without metadata when the configuration has an empty oauth table', async () => {
    const server = await fixture({ discovery: 'none' });
    const store = new MemoryTokenStore();
    const { mcp } = await connect({ remote: { url: server.url, oauth: {} } }, store);
    expect(mcp.status()[0]).toMatchObject({
      state: 'failed',
      auth: { state: 'login-needed' },
      error: 'MCP server "remote" needs you to log in (OAuth).',
    });
    // The login that status offers works: the 2025-03-26 default endpoints at the server's origin.
    const { result } = await login({ url: server.url, oauth: {} }, store);
    expect(result.outcome).toBe('logged-in');
    expect(server.seen.metadataRequests).toEqual([]);
    expect(server.seen.registrations).toHaveLength(1);
    const { registry } = await connect({ remote: { url: server.url, oauth: {} } }, store);
    expect((await callTool(registry, 'remote__whoami')).status).toBe('ok');
  });

  it('asks for credentials in "headers" for a server without metadata and without an oauth table', async () => {
    const server = await fixture({ discovery: 'none' });
    const { mcp } = await connect({ remote: { url: server.url } }, new MemoryTokenStore());
    const [status] = mcp.status();
    expect(status?.auth).toBeUndefined();
    expect(status?.error).toBe(
      'MCP server "remote" failed to start: the server answered HTTP 401 and describes no OAuth authorization server; check the credentials in "headers".',
    );
  });

  it('authorizes anew at a second login instead of refreshing the tokens held', async () => {
    const server = await fixture();
    const store = new MemoryTokenStore();
    await login({ url: server.url }, store);
    await login({ url: server.url }, store, ['extra']);
    expect(server.seen.authorizations.map((authorization) => authorization.scopes ?? [])).toEqual([[], ['extra']]);
    expect(server.seen.tokenRequests.map((request) => request.grant)).toEqual([
      'authorization_code',
      'authorization_code',
    ]);
    // Each login listens on a fresh port, and a server that matches redirect URIs exactly needs it registered.
    expect(server.seen.registrations.map((client) => client.redirect_uris)).toEqual([
      [server.seen.authorizations[0]?.redirectUri],
      [server.seen.authorizations[1]?.redirectUri],
    ]);
  });

  for (const refreshTokens of [false, true]) {
    it(`asks at the next login for the scope a step-up in a session wanted (${refreshTokens ? 'with' : 'without'} refresh tokens)`, async () => {
      const server = await fixture({ stepUpScope: 'admin', noRefreshTokens: !refreshTokens });
      const store = new MemoryTokenStore();
      await login({ url: server.url }, store);
      const { mcp, registry } = await connect({ remote: { url: server.url } }, store);
      const refused = await callTool(registry, 'remote__admin');
      expect(refused.content).toContain('MCP server "remote" needs you to log in (OAuth).');
      expect(mcp.status()[0]?.auth).toEqual({ state: 'login-needed' });

      await login({ url: server.url }, store);
      expect(server.seen.authorizations.map((authorization) => authorization.scopes ?? [])).toEqual([[], ['admin']]);
      expect((await callTool(registry, 'remote__admin')).content).toBe('admin done');
      expect((await store.get(resourceKey(server.url)))?.pendingScope).toBeUndefined();
    });
  }

  it('keeps its registration across logins on a fixed redirect_port', async () => {
    const server = await fixture();
    const store = new MemoryTokenStore();
    const config = { url: server.url, oauth: { redirectPort: await freePort() } };
    await login(config, store);
    await login(config, store);
    expect(server.seen.registrations).toHaveLength(1);
    expect(server.seen.authorizations).toHaveLength(2);
  });

  it('forgets the tokens at logout', async () => {
    const server = await fixture();
    const store = new MemoryTokenStore();
    await login({ url: server.url }, store);
    expect(await logoutMcpServer({ config: { url: server.url }, store })).toBe(true);
    expect(await store.get(resourceKey(server.url))).toBeUndefined();
    expect(await logoutMcpServer({ config: { url: server.url }, store })).toBe(false);
  });
});

describe('client credentials (machine to machine)', () => {
  it('logs in with a client secret without anybody, at the first connection', async () => {
    const server = await fixture({
      dynamicRegistration: false,
      clients: [{ client_id: 'svc', client_secret: 's3cret', redirect_uris: [] }],
      tokenEndpointAuthMethods: ['client_secret_basic'],
    });
    const { mcp, registry } = await connect(
      { remote: { url: server.url, oauth: { grant: 'client_credentials', clientId: 'svc', clientSecret: 's3cret' } } },
      new MemoryTokenStore(),
    );
    expect(mcp.status()[0]).toMatchObject({ state: 'ready', auth: { state: 'logged-in' } });
    expect((await callTool(registry, 'remote__whoami')).content).toBe('svc ');
    expect(server.seen.tokenRequests).toMatchObject([{ grant: 'client_credentials', method: 'client_secret_basic' }]);
  });

  it('authenticates with a private_key_jwt assertion signed by the key file', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const folder = await mkdtemp(join(tmpdir(), 'agentloop-oauth-'));
    const keyFile = join(folder, 'key.pem');
    await writeFile(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }));
    const server = await fixture({
      dynamicRegistration: false,
      clients: [
        { client_id: 'svc-jwt', redirect_uris: [], public_key_pem: publicKey.export({ type: 'spki', format: 'pem' }) },
      ],
    });
    const { mcp, registry } = await connect(
      {
        remote: {
          url: server.url,
          oauth: { grant: 'client_credentials', clientId: 'svc-jwt', privateKeyFile: keyFile },
        },
      },
      new MemoryTokenStore(),
    );
    expect(mcp.status()[0]?.state).toBe('ready');
    expect((await callTool(registry, 'remote__whoami')).content).toBe('svc-jwt ');
    expect(server.seen.tokenRequests).toMatchObject([{ grant: 'client_credentials', method: 'private_key_jwt' }]);
  });

  it('steps up to the scope a 403 insufficient_scope names, and the call goes through', async () => {
    const server = await fixture({
      dynamicRegistration: false,
      clients: [{ client_id: 'svc', client_secret: 's3cret', redirect_uris: [] }],
      stepUpScope: 'admin',
    });
    const { registry } = await connect(
      { remote: { url: server.url, oauth: { grant: 'client_credentials', clientId: 'svc', clientSecret: 's3cret' } } },
      new MemoryTokenStore(),
    );
    expect((await callTool(registry, 'remote__admin')).content).toBe('admin done');
    expect(server.seen.tokenRequests.map((request) => request.scope)).toEqual([undefined, 'admin']);
  });

  it(`stops stepping up after ${MAX_STEP_UPS} tries against a server that is never satisfied`, async () => {
    const server = await fixture({
      dynamicRegistration: false,
      clients: [{ client_id: 'svc', client_secret: 's3cret', redirect_uris: [] }],
      stepUpScope: 'admin',
      stepUpAlwaysRefuses: true,
    });
    const { registry } = await connect(
      { remote: { url: server.url, oauth: { grant: 'client_credentials', clientId: 'svc', clientSecret: 's3cret' } } },
      new MemoryTokenStore(),
    );
    const outcome = await callTool(registry, 'remote__admin');
    expect(outcome.status).not.toBe('ok');
    expect(outcome.content).toContain(
      'MCP server "remote" refused the call with HTTP 403 even after authorizing again',
    );
    expect(server.seen.tokenRequests).toHaveLength(1 + MAX_STEP_UPS);
  });
});

describe('where tokens go', () => {
  it("never sends one server's token to another, even under a server name the other had", async () => {
    const first = await fixture();
    const second = await fixture();
    const store = new MemoryTokenStore();
    await login({ url: first.url }, store);
    const token = (await store.get(resourceKey(first.url)))?.tokens?.access_token;
    expect(token).toMatch(/^at-/);

    // The same name re-pointed elsewhere: the credentials are the resource URL's, not the name's.
    const { mcp } = await connect({ remote: { url: second.url } }, store);
    expect(mcp.status()[0]).toMatchObject({ state: 'failed', auth: { state: 'login-needed' } });
    expect(second.seen.mcpAuthorization.length).toBeGreaterThan(0);
    expect(second.seen.mcpAuthorization.some((header) => header.includes(token ?? 'none'))).toBe(false);
    expect(first.seen.mcpAuthorization.filter((header) => header === `Bearer ${token}`)).toEqual([]);
  });

  it('keeps them in a file only its owner can read, in a folder only its owner can enter', async () => {
    const server = await fixture();
    const folder = join(await mkdtemp(join(tmpdir(), 'agentloop-tokens-')), 'mcp');
    const store = new FileTokenStore(join(folder, 'tokens.json'));
    await login({ url: server.url }, store);

    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    const file = JSON.parse(await readFile(store.path, 'utf8'));
    expect(file.version).toBe(1);
    expect(Object.keys(file.servers)).toEqual([server.url]);
    expect(file.servers[server.url].tokens.access_token).toMatch(/^at-/);
    // A second store on the same file (the next run) reads what the first wrote.
    expect((await new FileTokenStore(store.path).get(server.url))?.tokens?.refresh_token).toMatch(/^rt-/);
  });

  it('refuses a token file it cannot read, saying what to do', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentloop-tokens-'));
    const path = join(folder, 'tokens.json');
    await writeFile(path, '{"version":9,"servers":{}}');
    await expect(new FileTokenStore(path).get('http://x/mcp')).rejects.toThrow(
      `${path} is not a token file of version 1; delete it and log in again`,
    );
  });
});
