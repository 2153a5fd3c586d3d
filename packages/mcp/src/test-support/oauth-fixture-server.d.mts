/** What the OAuth fixture serves. */
export interface OAuthFixtureOptions {
  /**
   * How the client finds the authorization server: `www-authenticate` (the 401 names the
   * protected-resource metadata at a path of its own), `well-known` (the metadata at the path-aware
   * well-known URL only), `legacy` (no protected-resource metadata: the 2025-03-26 fallback to the
   * authorization server's metadata at the MCP server's origin), `none` (no metadata at all: the
   * 2025-03-26 default endpoints `/authorize`, `/token` and `/register` at the origin).
   */
  discovery?: 'www-authenticate' | 'well-known' | 'legacy' | 'none';
  /** Serve the authorization server's metadata at the OpenID Connect URL only. */
  openIdOnly?: boolean;
  /** false: no registration endpoint (a pre-registered client only). */
  dynamicRegistration?: boolean;
  /** Pre-registered clients (`public_key_pem` and `jwt_alg` for private_key_jwt). */
  clients?: Record<string, unknown>[];
  /** Advertise client ID metadata documents, and the documents the server "fetched" by URL. */
  clientIdMetadataDocuments?: boolean;
  metadataDocuments?: Record<string, Record<string, unknown>>;
  scopesSupported?: string[];
  requiredScopes?: string[];
  /** Calls of the `admin` tool answer 403 insufficient_scope until the token has this scope. */
  stepUpScope?: string;
  /** Every 403 names a new scope, so no token is ever enough. */
  stepUpAlwaysRefuses?: boolean;
  /** `initialize` and notifications need no token; the tools do (the 401 comes at `tools/list`). */
  openHandshake?: boolean;
  tokenEndpointAuthMethods?: string[];
  tokenLifetimeSeconds?: number;
  /** No refresh token with the tokens. (Those issued rotate: each is taken once, a reused one is refused.) */
  noRefreshTokens?: boolean;
  /**
   * Awaited before a refresh-token grant is answered (it is in `seen.tokenRequests` by then): a test holds
   * refreshes in flight with it.
   */
  beforeRefresh?: (refreshToken: string) => Promise<void>;
  port?: number;
}

/** What the fixture saw. */
export interface OAuthFixtureSeen {
  /** The Authorization header of every request to /mcp ('' for none). */
  mcpAuthorization: string[];
  authorizations: {
    clientId: string;
    scopes?: string[];
    resource?: string;
    codeChallenge: string;
    redirectUri: string;
    state?: string;
  }[];
  tokenRequests: { grant: string; method: string; scope?: string; resource?: string; rejected?: string }[];
  registrations: Record<string, unknown>[];
  metadataRequests: string[];
}

export interface OAuthFixtureServer {
  /** The MCP endpoint. */
  url: string;
  origin: string;
  seen: OAuthFixtureSeen;
  /** Makes every access token issued so far expired (a refresh is needed). */
  expireTokens(): void;
  close(): Promise<void>;
}

export declare function startOAuthFixtureServer(options?: OAuthFixtureOptions): Promise<OAuthFixtureServer>;
