import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isStdioServerConfig, type McpHttpServerConfig, type McpServerConfig } from '../config/index.js';
import { ChildProcessTransport } from '../transport/child-process-transport.js';
import type { StderrTail } from '../transport/stderr-tail.js';
import type { McpTransportKind } from './mcp-server-status.js';

/** A client connected to a server and through which transport. */
export interface OpenedClient {
  client: Client;
  kind: McpTransportKind;
  /** The server process, for a stdio server. */
  process?: ChildProcessTransport;
}

/** What opening a client needs beside the server's configuration. */
export interface OpenClientOptions {
  /** How the client introduces itself in the handshake. */
  clientInfo: { name: string; version: string };
  /** Receives the server's stderr (stdio). */
  stderr: StderrTail;
  /** Called once the client exists and before the handshake, to set its notification handlers. */
  prepare(client: Client): void;
  /** Called with a stdio server's process as soon as it is made, so that a failed start can report its exit. */
  onProcess?(process: ChildProcessTransport): void;
  /** Bounds the handshake. */
  requestOptions: RequestOptions;
  /** An HTTP server's OAuth provider, and the fetch that keeps its token to the server's origin. */
  auth?: { provider: OAuthClientProvider | undefined; fetch: FetchLike };
}

/**
 * Starts or reaches a server and completes the MCP handshake. For an HTTP server in `auto` mode, tries
 * Streamable HTTP and falls back to the older HTTP+SSE transport when the server answers the first
 * request with an HTTP 4xx (404 or 405 from a server that predates Streamable HTTP), as the
 * specification's backwards-compatibility section describes. Throws what the start or the handshake
 * threw, after closing what it opened.
 */
export async function openClient(config: McpServerConfig, options: OpenClientOptions): Promise<OpenedClient> {
  if (isStdioServerConfig(config)) {
    const process = new ChildProcessTransport({ ...config, stderr: options.stderr });
    options.onProcess?.(process);
    const client = await connect(process, options);
    return { client, kind: 'stdio', process };
  }
  const mode = config.transport ?? 'auto';
  const sse = () => sseTransport(config, options.auth);
  if (mode === 'sse') return { client: await connectHttp(sse, options), kind: 'sse' };
  try {
    const streamable = () => streamableTransport(config, options.auth);
    return { client: await connectHttp(streamable, options), kind: 'streamable-http' };
  } catch (error) {
    if (mode === 'streamable-http' || !refusedStreamableHttp(error)) throw error;
    return { client: await connectHttp(sse, options), kind: 'sse' };
  }
}

/**
 * Connects over HTTP, once more when the first request went out on a pooled connection the server had
 * closed (a server started again since): fetch does not retry a POST, and that failure says nothing
 * about the server.
 */
async function connectHttp(
  transport: () => StreamableHTTPClientTransport | SSEClientTransport,
  options: OpenClientOptions,
): Promise<Client> {
  try {
    return await connect(transport(), options);
  } catch (error) {
    if (!isStaleConnection(error)) throw error;
    return await connect(transport(), options);
  }
}

function isStaleConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return error instanceof TypeError && (cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET');
}

async function connect(
  transport: ChildProcessTransport | StreamableHTTPClientTransport | SSEClientTransport,
  options: OpenClientOptions,
): Promise<Client> {
  // A client connects once: a restart or a fallback makes a new one.
  const client = new Client(options.clientInfo, { capabilities: {} });
  options.prepare(client);
  try {
    await client.connect(transport, options.requestOptions);
    return client;
  } catch (error) {
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    throw error;
  }
}

function streamableTransport(
  config: McpHttpServerConfig,
  auth: OpenClientOptions['auth'],
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(config.url), transportOptions(config, auth));
}

function sseTransport(config: McpHttpServerConfig, auth: OpenClientOptions['auth']): SSEClientTransport {
  return new SSEClientTransport(new URL(config.url), transportOptions(config, auth));
}

function transportOptions(config: McpHttpServerConfig, auth: OpenClientOptions['auth']) {
  return {
    requestInit: { headers: { ...config.headers } },
    ...(auth?.provider ? { authProvider: auth.provider } : {}),
    ...(auth ? { fetch: auth.fetch } : {}),
  };
}

function refusedStreamableHttp(error: unknown): boolean {
  // Not 401 or 403: a server that wants credentials would refuse SSE too, and its own answer says why.
  const status = error instanceof StreamableHTTPError ? error.code : undefined;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 401 && status !== 403;
}
