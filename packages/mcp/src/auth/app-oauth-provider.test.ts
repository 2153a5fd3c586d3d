import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServers, type McpServers } from '../mcp-servers.js';
import { callTool, ToolRegistry } from '../test-support/call-tool.js';
import { type OAuthFixtureServer, startOAuthFixtureServer } from '../test-support/oauth-fixture-server.mjs';
import { MemoryTokenStore } from './mcp-token-store.js';

/** What a web app brings: its own storage (here, fields) and its own redirect (here, recorded). */
class AppOAuthProvider implements OAuthClientProvider {
  readonly redirectUrl = 'https://app.example/oauth/callback';
  readonly sentTo: URL[] = [];
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'the app', redirect_uris: [this.redirectUrl], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.sentTo.push(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let server: OAuthFixtureServer | undefined;
let mcp: McpServers | undefined;

afterEach(async () => {
  await mcp?.close();
  await server?.close();
});

describe('connectMcpServers with the oauth option', () => {
  it("runs the flow through the app's provider: its redirect, its storage, and finishAuthorization", async () => {
    server = await startOAuthFixtureServer();
    const provider = new AppOAuthProvider();
    const store = new MemoryTokenStore();
    mcp = await connectMcpServers({ remote: { url: server.url } }, { oauth: { provider, store } });
    expect(mcp.status()[0]).toMatchObject({ state: 'failed', auth: { state: 'login-needed' } });
    expect(provider.sentTo).toHaveLength(1);

    // The user approves; the authorization server sends the browser to the app's callback with a code.
    const approval = await fetch(provider.sentTo[0] as URL, { redirect: 'manual' });
    const callback = new URL(approval.headers.get('location') ?? '');
    expect(`${callback.origin}${callback.pathname}`).toBe(provider.redirectUrl);

    const status = await mcp.finishAuthorization('remote', callback.searchParams.get('code') ?? '');
    expect(status).toMatchObject({ state: 'ready', auth: { state: 'logged-in' } });
    expect(provider.saved?.access_token).toMatch(/^at-/);
    expect(await store.get(server.url)).toBeUndefined();
    const registry = new ToolRegistry();
    mcp.attach(registry);
    expect((await callTool(registry, 'remote__whoami')).status).toBe('ok');
  });

  it('chooses a provider per server, and rejects finishing a server it does not know', async () => {
    server = await startOAuthFixtureServer();
    const provider = new AppOAuthProvider();
    const asked: string[] = [];
    mcp = await connectMcpServers(
      { remote: { url: server.url } },
      {
        oauth: {
          provider: ({ name }) => {
            asked.push(name);
            return provider;
          },
        },
      },
    );
    expect(asked).toEqual(['remote']);
    expect(provider.sentTo).toHaveLength(1);
    await expect(mcp.finishAuthorization('other', 'code')).rejects.toThrow(
      'No MCP server is named "other"; the servers are remote.',
    );
  });
});
