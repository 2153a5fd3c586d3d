import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { McpHttpServerConfig } from '../config/mcp-server-config.js';
import { McpServerError } from '../errors/index.js';
import { authorizedFetch } from './authorized-fetch.js';
import { listenForRedirect } from './loopback-redirect.js';
import type { McpTokenStore } from './mcp-token-store.js';
import { StoredOAuthProvider } from './stored-oauth-provider.js';

/** What `loginMcpServer` needs. */
export interface LoginMcpServerOptions {
  /** The server's name as configured, for messages. */
  name: string;
  config: McpHttpServerConfig;
  /** Where the tokens go (a `FileTokenStore` for a command-line user). */
  store: McpTokenStore;
  /** Scopes to ask for beside the configured ones (`agentloop mcp login NAME --scopes a,b`). */
  scopes?: readonly string[];
  /**
   * Sends the user to the authorization URL: opens a browser, prints it. Not called for the
   * client-credentials grant, which needs nobody.
   */
  openAuthorizationUrl(url: URL): void | Promise<void>;
  /** Ends a login that waits for the browser. */
  signal?: AbortSignal;
  /** How the client names itself when it registers. Default `agentloop`. */
  clientName?: string;
}

/** How a login ended. */
export interface LoginMcpServerResult {
  /** `not-needed` when the server answered without asking for authorization. */
  outcome: 'logged-in' | 'not-needed';
  /** When the access token expires (milliseconds since the epoch), where the server said. */
  expiresAt?: number;
  /** The scopes granted, where the server said. */
  scope?: string;
}

/**
 * Logs in to an HTTP server through OAuth and keeps its tokens in the store, under the server's resource
 * URL: asks the server (the 401 names its protected-resource metadata and the scopes it wants), discovers
 * its authorization server, registers the client where needed, and then either runs the
 * client-credentials grant, or sends the user to the authorization URL (PKCE, `resource`, `state`) and
 * receives the code on a loopback redirect at 127.0.0.1 (`redirectPort`, or a free port). Rejects with
 * an McpServerError saying what failed.
 */
export async function loginMcpServer(options: LoginMcpServerOptions): Promise<LoginMcpServerResult> {
  const { name, config, store } = options;
  const oauth = { ...config.oauth, scopes: [...(config.oauth?.scopes ?? []), ...(options.scopes ?? [])] };
  const fail = (message: string, cause?: unknown): McpServerError =>
    new McpServerError(name, `MCP server "${name}": ${message}`, 'login_required', cause);
  const challenge = await probe(config, fail);
  if (!challenge) return { outcome: 'not-needed' };
  const serverUrl = config.url;
  if (oauth.grant === 'client_credentials') {
    const provider = new StoredOAuthProvider({
      serverName: name,
      serverUrl,
      config: oauth,
      store,
      ...(options.clientName ? { clientName: options.clientName } : {}),
    });
    if (challenge.scope) provider.noteChallengedScope(challenge.scope);
    await authorize(provider, serverUrl, challenge, fail);
    return await result(store, provider.resource);
  }
  const redirect = await listenForRedirect(oauth.redirectPort);
  try {
    let opened: Promise<void> | undefined;
    const provider = new StoredOAuthProvider({
      serverName: name,
      serverUrl,
      config: oauth,
      store,
      ...(options.clientName ? { clientName: options.clientName } : {}),
      login: {
        redirectUrl: redirect.redirectUrl,
        openAuthorizationUrl: (url) => {
          opened = Promise.resolve(options.openAuthorizationUrl(url));
        },
      },
    });
    const received = redirect.code(() => provider.expectedState);
    // Awaited only after the browser was sent off; a refusal that comes first must not go unhandled.
    received.catch(() => {});
    const outcome = await authorize(provider, serverUrl, challenge, fail);
    if (outcome === 'AUTHORIZED') return await result(store, provider.resource);
    await opened;
    const code = await abortable(received, options.signal).catch((error: Error) => {
      throw fail(`the login did not complete: ${error.message}.`, error);
    });
    await authorize(provider, serverUrl, challenge, fail, code);
    return await result(store, provider.resource);
  } finally {
    await redirect.close();
  }
}

/**
 * The server's challenge to a client without a token, or undefined when it needs none. A server may let
 * the handshake through and ask for authorization only from the first real request on (the
 * specification allows a 401 on any request), so past a successful `initialize` the handshake is
 * finished and the tools are listed, as a session would.
 */
async function probe(
  config: McpHttpServerConfig,
  fail: (message: string, cause?: unknown) => McpServerError,
): Promise<{ resourceMetadataUrl?: URL; scope?: string } | undefined> {
  const send = postWithoutToken(config, fail);
  const initialize = await send(
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'agentloop', version: '0' },
      },
    },
    {},
    { readBody: true },
  );
  if (isChallenge(initialize)) return challengeOf(initialize);
  if (!initialize.ok) return undefined;
  // The version the server agreed to, as a session would send it: a server that knows only older ones
  // answers any request naming the newest with 400, which would hide the 401 of a later request. Without
  // one in the answer the header is left out, and the server assumes its default (2025-03-26).
  const version = await negotiatedVersion(initialize);
  const session: Record<string, string> = {
    ...headerIfAny(initialize, 'mcp-session-id'),
    ...(version ? { 'mcp-protocol-version': version } : {}),
  };
  const initialized = await send({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  if (isChallenge(initialized)) return challengeOf(initialized);
  const listed = await send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, session);
  if (session['mcp-session-id']) {
    // Ends the probe's session on the server; one that does not allow it keeps it until it expires.
    await authorizedFetch(config.url)(config.url, { method: 'DELETE', headers: { ...config.headers, ...session } })
      .then((response) => response.body?.cancel())
      .catch(() => {});
  }
  return isChallenge(listed) ? challengeOf(listed) : undefined;
}

/**
 * The `protocolVersion` of the `initialize` result (id 0) in a server's answer, as JSON or as an SSE
 * stream; undefined where the answer holds none. Reads no further than that result.
 */
async function negotiatedVersion(response: Response): Promise<string | undefined> {
  if (!response.body) return undefined;
  const versionOf = (text: string): string | undefined => {
    try {
      const message = JSON.parse(text) as { id?: unknown; result?: { protocolVersion?: unknown } } | null;
      const version = message?.id === 0 ? message.result?.protocolVersion : undefined;
      return typeof version === 'string' ? version : undefined;
    } catch {
      return undefined;
    }
  };
  try {
    if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      return versionOf(await response.text());
    }
    const events = response.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .getReader();
    try {
      for (;;) {
        const { value, done } = await events.read();
        if (done) return undefined;
        const version = versionOf(value.data);
        if (version) return version;
      }
    } finally {
      // A server may keep the stream open after the result: the probe needs nothing more from it.
      await events.cancel().catch(() => {});
    }
  } catch {
    return undefined;
  }
}

/**
 * A POST of one JSON-RPC message to the server, without a token. The body is dropped unless `readBody`,
 * when the caller reads it.
 */
function postWithoutToken(config: McpHttpServerConfig, fail: (message: string, cause?: unknown) => McpServerError) {
  return async (
    message: Record<string, unknown>,
    extraHeaders: Record<string, string> = {},
    { readBody = false }: { readBody?: boolean } = {},
  ): Promise<Response> => {
    let response: Response;
    try {
      response = await authorizedFetch(config.url)(config.url, {
        method: 'POST',
        // The configured headers too: a server that takes them (a static Authorization) needs no login.
        headers: {
          ...config.headers,
          ...extraHeaders,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(message),
      });
    } catch (error) {
      throw fail(`could not reach ${config.url} (${(error as Error).message}).`, error);
    }
    if (!readBody || !response.ok) await response.body?.cancel().catch(() => {});
    return response;
  };
}

function isChallenge(response: Response): boolean {
  return response.status === 401 || response.status === 403;
}

function challengeOf(response: Response): { resourceMetadataUrl?: URL; scope?: string } {
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
}

function headerIfAny(response: Response, name: string): Record<string, string> {
  const value = response.headers.get(name);
  return value ? { [name]: value } : {};
}

async function authorize(
  provider: StoredOAuthProvider,
  serverUrl: string,
  challenge: { resourceMetadataUrl?: URL; scope?: string },
  fail: (message: string, cause?: unknown) => McpServerError,
  authorizationCode?: string,
): Promise<'AUTHORIZED' | 'REDIRECT'> {
  try {
    return await auth(provider, {
      serverUrl,
      ...challenge,
      ...(authorizationCode ? { authorizationCode } : {}),
      fetchFn: authorizedFetch(serverUrl),
    });
  } catch (error) {
    if (error instanceof McpServerError) throw error;
    throw fail(`the OAuth login failed: ${(error as Error).message}`, error);
  }
}

async function result(store: McpTokenStore, resource: string): Promise<LoginMcpServerResult> {
  const stored = await store.get(resource);
  return {
    outcome: 'logged-in',
    ...(stored?.expiresAt ? { expiresAt: stored.expiresAt } : {}),
    ...(stored?.tokens?.scope ? { scope: stored.tokens.scope } : {}),
  };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('it was cancelled'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
