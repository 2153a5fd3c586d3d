import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { McpServerError } from '../errors/index.js';
import { LOCK_LEASE_MS } from './file-lock.js';
import type { McpOAuthConfig } from './mcp-oauth-config.js';
import { type McpStoredCredentials, type McpTokenStore, resourceKey } from './mcp-token-store.js';
import { readPrivateKey } from './read-private-key.js';

/** What the built-in OAuth provider of one server needs. */
export interface StoredOAuthProviderOptions {
  /** The server's name as configured, for messages. */
  serverName: string;
  /** The server's MCP endpoint; its resource key (see `resourceKey`) is where the credentials are kept. */
  serverUrl: string;
  /**
   * The server's `oauth` configuration. Where it is given, even empty, the server is known to use OAuth:
   * a 401 without any OAuth metadata then means the default endpoints at the server's origin (the
   * 2025-03-26 specification), a login, rather than credentials missing from `headers`.
   */
  config?: McpOAuthConfig;
  store: McpTokenStore;
  /**
   * Where the browser is sent back to during a login (the loopback redirect), with the function that
   * sends the user to the authorization URL. Without it (a session, not a login), an authorization that
   * needs a person throws an McpServerError `login_required` instead.
   */
  login?: { redirectUrl: string; openAuthorizationUrl(url: URL): void | Promise<void> };
  /** How the client names itself when it registers. Default `agentloop`. */
  clientName?: string;
  /** The clock, for expiry times; `Date.now` by default. */
  now?: () => number;
}

/** Stands in for a redirect that is never used: outside a login, an authorization stops before it. */
const NO_REDIRECT = 'http://127.0.0.1/callback';
const OFFLINE_ACCESS = 'offline_access';

/**
 * How long a refresh waits for the authorization server. It holds the refresh lock meanwhile, which other
 * processes wait for no longer than two leases: a server that never answers must not outlast them.
 */
export const REFRESH_TIMEOUT_MS = (LOCK_LEASE_MS * 2) / 3;

/**
 * The SDK's OAuthClientProvider over a McpTokenStore: keeps one server's tokens, client registration and
 * discovery under its resource URL, adds the configured scopes (and `offline_access` where the
 * authorization server offers it, so that a refresh token comes back), and runs the client-credentials
 * grant (client secret or `private_key_jwt`) without anybody.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  readonly resource: string;
  readonly #options: StoredOAuthProviderOptions;
  readonly #config: McpOAuthConfig;
  readonly #now: () => number;
  #codeVerifier: string | undefined;
  #state: string | undefined;
  /** Scopes the server asked for in a `WWW-Authenticate` challenge (a step-up), for the client-credentials grant. */
  #challengedScope: string | undefined;
  /** The scope the last 403 `insufficient_scope` asked for, which the tokens held may lack. */
  #stepUpScope: string | undefined;
  /** The access token the server refused last: a refresh that finds another one held was done elsewhere. */
  #refusedAccessToken: string | undefined;
  /** The access token a refresh here stored already, which the SDK's `saveTokens` after it must not store again. */
  #storedByRefresh: string | undefined;
  /** The refresh token the authorization server refused last here. */
  #refusedRefreshToken: string | undefined;
  /**
   * Tokens a refresh here got that the store could not keep: the authorization server may have spent the
   * refresh token the store holds, so this process goes on with these (over what the store reads) until
   * a write succeeds.
   */
  #unsaved: Pick<McpStoredCredentials, 'tokens' | 'expiresAt'> | undefined;
  #tokenStoreError: string | undefined;
  readonly addClientAuthentication: OAuthClientProvider['addClientAuthentication'];

  constructor(options: StoredOAuthProviderOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.resource = resourceKey(options.serverUrl);
    this.#config = options.config ?? {};
    const config = this.#config;
    if (config.grant === 'client_credentials' && config.privateKeyFile && config.clientId) {
      const clientId = config.clientId;
      const keyFile = config.privateKeyFile;
      this.addClientAuthentication = async (headers, params, url, metadata) => {
        const privateKey = await readPrivateKey(keyFile, options.serverName);
        await createPrivateKeyJwtAuth({
          issuer: clientId,
          subject: clientId,
          privateKey: privateKey.pem,
          alg: privateKey.algorithm,
        })(headers, params, url, metadata);
      };
    }
  }

  get redirectUrl(): string | undefined {
    if (this.#config.grant === 'client_credentials') return undefined;
    return this.#options.login?.redirectUrl ?? NO_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.#config.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const config = this.#config;
    const scope = config.scopes?.join(' ');
    const clientCredentials = config.grant === 'client_credentials';
    return {
      client_name: this.#options.clientName ?? 'agentloop',
      redirect_uris: clientCredentials ? [] : [this.redirectUrl ?? NO_REDIRECT],
      grant_types: clientCredentials ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
      response_types: clientCredentials ? [] : ['code'],
      token_endpoint_auth_method: config.privateKeyFile
        ? 'private_key_jwt'
        : config.clientSecret
          ? 'client_secret_basic'
          : 'none',
      ...(scope ? { scope } : {}),
    };
  }

  state(): string {
    this.#state = randomBytes(16).toString('base64url');
    return this.#state;
  }

  /** The `state` sent with the last authorization URL, which the redirect must bring back. */
  get expectedState(): string | undefined {
    return this.#state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { login } = this.#options;
    const config = this.#config;
    const stored = (await this.#read()).clientInformation;
    if (config.clientId) {
      // The configured client, with the issuer the SDK bound it to once it was used, and its secret
      // from the configuration (it is never written to the store).
      const bound = stored?.client_id === config.clientId ? stored : undefined;
      return {
        ...bound,
        client_id: config.clientId,
        ...(config.clientSecret ? { client_secret: config.clientSecret } : {}),
      };
    }
    if (!stored) {
      // A session cannot finish a browser login, so it registers no client for one (a registration for a
      // redirect nobody listens on would only be replaced by the login's). A client ID metadata document
      // needs no registration, where the authorization server takes one.
      if (!login && !(this.clientMetadataUrl && (await this.#takesMetadataDocuments()))) {
        throw await this.#cannotAuthorizeAlone();
      }
      return undefined;
    }
    // A registration made for another loopback port is useless to this login: register again.
    const registered = 'redirect_uris' in stored ? stored.redirect_uris : undefined;
    if (login && registered && stored.client_id !== this.clientMetadataUrl && !registered.includes(login.redirectUrl)) {
      return undefined;
    }
    return stored;
  }

  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    const { client_secret: _secret, ...withoutConfiguredSecret } = clientInformation;
    const kept = this.#config.clientId ? withoutConfiguredSecret : clientInformation;
    await this.#update((credentials) => ({ ...credentials, clientInformation: kept }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    // A login asks anew (other scopes, another account): refreshing what is held would only renew it.
    if (this.#options.login) return undefined;
    const tokens = (await this.#read()).tokens;
    if (!tokens?.refresh_token || !this.#stepUpScope) return tokens;
    // The SDK answers a step-up with a refresh where it holds a refresh token, which renews the scope the
    // tokens have and never the one the server asked for: without it, the SDK authorizes anew.
    const granted = new Set((tokens.scope ?? '').split(' '));
    if (this.#stepUpScope.split(' ').every((scope) => !scope || granted.has(scope))) return tokens;
    const { refresh_token: _kept, ...withoutRefresh } = tokens;
    return withoutRefresh;
  }

  /** When the access token held expires (milliseconds since the epoch), where the server said. */
  async expiresAt(): Promise<number | undefined> {
    return (await this.#read()).expiresAt;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    if (tokens.access_token === this.#storedByRefresh) {
      // Stored under the refresh's lock already; storing again now could overwrite a later refresh's.
      this.#storedByRefresh = undefined;
      return;
    }
    await this.#storeTokens(tokens);
  }

  /**
   * Why the tokens in use are not in the store: a refresh got them but the store could not be written
   * (they last as long as this process). Undefined once the store holds them again.
   */
  get tokenStoreError(): string | undefined {
    return this.#tokenStoreError;
  }

  /** Notes the access token of a request the server refused (see `authorizedFetch`). */
  noteRefusedToken(accessToken: string): void {
    this.#refusedAccessToken = accessToken;
  }

  /**
   * Runs the SDK's refresh-token grant (`send`) under the store's lock, so that processes sharing the
   * tokens refresh one at a time: an authorization server that rotates refresh tokens takes each one
   * once. Under the lock, tokens that another process refreshed meanwhile (others than the ones the
   * server refused here, not expired) are answered as if the authorization server had issued them;
   * otherwise the newest refresh token held is sent, and what comes back is stored before the lock is
   * let go. The request is given REFRESH_TIMEOUT_MS; past it, this rejects with an McpServerError and the
   * lock is let go.
   */
  async refreshTokens(
    refreshToken: string,
    send: (refreshToken: string, signal?: AbortSignal) => Promise<Response>,
  ): Promise<Response> {
    const refresh = async (): Promise<Response> => {
      const stored = await this.#read();
      const held = stored.tokens;
      const unexpired = stored.expiresAt === undefined || stored.expiresAt > this.#now();
      const refused = this.#refusedAccessToken;
      // Without a refusal seen here (a refresh the SDK started on its own), a new refresh token tells.
      const renewed = refused === undefined ? held?.refresh_token !== refreshToken : held?.access_token !== refused;
      if (held && unexpired && renewed) {
        this.#storedByRefresh = held.access_token;
        return Response.json(tokenResponse(held, stored.expiresAt, this.#now()));
      }
      const sent = held?.refresh_token ?? refreshToken;
      const { response, text } = await this.#sendInTime((signal) => send(sent, signal));
      if (!response.ok) this.#refusedRefreshToken = sent;
      const issued = response.ok ? parseTokens(text) : undefined;
      if (issued) {
        // The issuer is the one the SDK stamped on the tokens it refreshed (it is checked before a refresh).
        const issuer = (held as { issuer?: string } | undefined)?.issuer;
        const tokens = { refresh_token: sent, ...issued, ...(issuer ? { issuer } : {}) };
        try {
          await this.#storeTokens(tokens);
        } catch (error) {
          // The server may have rotated the refresh token: losing its answer would lose the login.
          this.#keepUnsaved(tokens, error);
        }
        this.#storedByRefresh = issued.access_token;
      }
      return new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
    const store = this.#options.store;
    return store.withLock ? store.withLock(this.resource, refresh) : refresh();
  }

  /**
   * Sends a refresh (`send`) and reads its answer within REFRESH_TIMEOUT_MS, or rejects with an
   * McpServerError saying the authorization server did not answer. The signal given to `send` is aborted
   * then; a `send` that ignores it is left behind.
   */
  async #sendInTime(send: (signal: AbortSignal) => Promise<Response>): Promise<{ response: Response; text: string }> {
    const timeout = new AbortController();
    // The global setTimeout rather than AbortSignal.timeout: a test's fake clock drives it.
    const timer = setTimeout(() => timeout.abort(), REFRESH_TIMEOUT_MS);
    const expired = new Promise<never>((_, reject) => {
      timeout.signal.addEventListener('abort', () => {
        const name = this.#options.serverName;
        reject(
          new McpServerError(
            name,
            `MCP server "${name}": the authorization server did not answer the token refresh within ${REFRESH_TIMEOUT_MS / 1000} s; try again later.`,
            'server_start_failed',
          ),
        );
      });
    });
    try {
      return await Promise.race([
        (async () => {
          const response = await send(timeout.signal);
          return { response, text: await response.text() };
        })(),
        expired,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  #keepUnsaved(tokens: OAuthTokens, error: unknown): void {
    this.#unsaved = {
      tokens,
      ...(tokens.expires_in === undefined ? {} : { expiresAt: this.#now() + tokens.expires_in * 1000 }),
    };
    const name = this.#options.serverName;
    this.#tokenStoreError = `MCP server "${name}": the refreshed tokens could not be stored (${(error as Error).message}); this process goes on with them, but another run may need a new login.`;
  }

  async #storeTokens(tokens: OAuthTokens): Promise<void> {
    const login = this.#options.login !== undefined;
    await this.#update((credentials) => {
      // A refresh that brings no new refresh token leaves the old one valid (RFC 6749, 6).
      const refreshToken = tokens.refresh_token ?? credentials.tokens?.refresh_token;
      const { expiresAt: _expired, pendingScope, ...rest } = credentials;
      return {
        ...rest,
        tokens: { ...tokens, ...(refreshToken ? { refresh_token: refreshToken } : {}) },
        ...(tokens.expires_in === undefined ? {} : { expiresAt: this.#now() + tokens.expires_in * 1000 }),
        // A login asked for it; a refresh or a client-credentials grant does not settle a step-up.
        ...(pendingScope && !login ? { pendingScope } : {}),
      };
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const login = this.#options.login;
    const asked = authorizationUrl.searchParams.get('scope') ?? '';
    if (!login) {
      // The scope a step-up asked for is known only here, in the session; the login that follows, in
      // this process or in `agentloop mcp login`, sees only the server's first challenge.
      if (asked) await this.#update((credentials) => ({ ...credentials, pendingScope: asked }));
      throw this.#loginRequired();
    }
    const stored = await this.#read();
    const metadata = stored.discoveryState?.authorizationServerMetadata;
    const scopes = new Set([...asked.split(' '), ...(stored.pendingScope ?? '').split(' ')]);
    scopes.delete('');
    for (const scope of this.#config.scopes ?? []) scopes.add(scope);
    if (metadata?.scopes_supported?.includes(OFFLINE_ACCESS)) scopes.add(OFFLINE_ACCESS);
    if (scopes.size > 0) authorizationUrl.searchParams.set('scope', [...scopes].join(' '));
    // OpenID Connect hands out a refresh token for offline_access only after the user consented to it.
    if (scopes.has(OFFLINE_ACCESS) && !authorizationUrl.searchParams.has('prompt')) {
      authorizationUrl.searchParams.set('prompt', 'consent');
    }
    await login.openAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.#codeVerifier) throw new Error('No PKCE code verifier: the authorization was not started here.');
    return this.#codeVerifier;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.#config.grant !== 'client_credentials') return undefined;
    const scopes = new Set([...(scope ?? '').split(' '), ...(this.#challengedScope ?? '').split(' ')]);
    scopes.delete('');
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scopes.size > 0) params.set('scope', [...scopes].join(' '));
    return params;
  }

  /** Notes the scope a server's `WWW-Authenticate` challenge asked for (see `authorizedFetch`). */
  noteChallengedScope(scope: string, stepUp = false): void {
    this.#challengedScope = scope;
    if (stepUp) this.#stepUpScope = scope;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.#codeVerifier = undefined;
      return;
    }
    if (scope === 'all' || scope === 'tokens') this.#forgetUnsaved();
    if (scope === 'all') {
      await this.#options.store.delete(this.resource);
      return;
    }
    const refused = this.#refusedRefreshToken;
    this.#refusedRefreshToken = undefined;
    if (scope === 'tokens' && refused) {
      // The refresh token refused here was spent by another process, whose tokens are held now: keep them.
      const held = (await this.#read()).tokens?.refresh_token;
      if (held && held !== refused) return;
    }
    const field = { client: 'clientInformation', tokens: 'tokens', discovery: 'discoveryState' } as const;
    await this.#update((credentials) => {
      const { [field[scope]]: _dropped, ...rest } = credentials;
      return scope === 'tokens' ? { ...rest, expiresAt: undefined } : rest;
    });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.#read()).discoveryState;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.#update((credentials) => ({ ...credentials, discoveryState: state }));
  }

  /** Whether the authorization server discovered says it takes a client ID metadata document's URL as a client ID. */
  async #takesMetadataDocuments(): Promise<boolean> {
    const metadata = (await this.#read()).discoveryState?.authorizationServerMetadata;
    return metadata?.client_id_metadata_document_supported === true;
  }

  async #read(): Promise<McpStoredCredentials> {
    const stored = (await this.#options.store.get(this.resource)) ?? {};
    if (!this.#unsaved) return stored;
    const { expiresAt: _stale, ...rest } = stored;
    return { ...rest, ...this.#unsaved };
  }

  /** Writes the credentials changed; unsaved tokens read into them are in the store after it. */
  async #update(change: (credentials: McpStoredCredentials) => McpStoredCredentials): Promise<void> {
    const unsaved = this.#unsaved;
    const next = change(await this.#read());
    const defined = Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined));
    await this.#options.store.set(this.resource, defined);
    if (this.#unsaved === unsaved) this.#forgetUnsaved();
  }

  #forgetUnsaved(): void {
    this.#unsaved = undefined;
    this.#tokenStoreError = undefined;
  }

  /**
   * Why a session cannot authorize alone: a server that describes an authorization server wants a login;
   * one that describes none (a 401 from a server that wants an API key) wants credentials in `headers`,
   * unless the configuration has an `oauth` table, even an empty one: then it is an older server whose
   * authorization server sits at the default endpoints of its origin.
   */
  async #cannotAuthorizeAlone(): Promise<McpServerError> {
    const discovered = (await this.#read()).discoveryState;
    const configured = this.#options.config !== undefined;
    const oauth = discovered?.authorizationServerMetadata || discovered?.resourceMetadata || configured;
    if (oauth) return this.#loginRequired();
    const name = this.#options.serverName;
    return new McpServerError(
      name,
      `the server answered HTTP 401 and describes no OAuth authorization server; check the credentials in "headers"`,
      'server_start_failed',
    );
  }

  #loginRequired(): McpServerError {
    const name = this.#options.serverName;
    return new McpServerError(name, `MCP server "${name}" needs you to log in (OAuth).`, 'login_required');
  }
}

/** A token endpoint's answer that hands out tokens held, with the time they have left. */
function tokenResponse(tokens: OAuthTokens, expiresAt: number | undefined, now: number): Record<string, unknown> {
  const { issuer: _issuer, expires_in: _issued, ...answer } = tokens as OAuthTokens & { issuer?: string };
  return expiresAt === undefined
    ? answer
    : { ...answer, expires_in: Math.max(0, Math.floor((expiresAt - now) / 1000)) };
}

/** The tokens in a token endpoint's answer, or undefined where it holds none (the SDK then says what is wrong). */
function parseTokens(text: string): OAuthTokens | undefined {
  try {
    const value = JSON.parse(text) as Partial<OAuthTokens> | null;
    return typeof value?.access_token === 'string' && typeof value.token_type === 'string'
      ? (value as OAuthTokens)
      : undefined;
  } catch {
    return undefined;
  }
}
