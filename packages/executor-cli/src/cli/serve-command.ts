import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '@agentloop/core';
import type { CliFlags } from '../config/index.js';
import { resolveSessionSettings } from '../config/index.js';
import { CliError } from '../errors/index.js';
import { EXIT_CODES } from '../session/exit-codes.js';
import { isSetupError } from '../session/setup-error.js';
import { AgentsBySession } from './agents-by-session.js';
import { openAcpSessionStore } from './open-acp-session-store.js';
import type { ServeFlags } from './serve-settings.js';
import { pageUrl, resolveServeSettings } from './serve-settings.js';
import type { SessionHooks } from './start-session.js';

/** What `agentloop serve` reads and writes; injectable for tests. */
export interface ServeCommandOptions {
  /** Where the page's address goes. Default: stdout. */
  output?: NodeJS.WritableStream;
  /** Where notes, warnings and errors go. Default: stderr. */
  errorOutput?: NodeJS.WritableStream;
  environment?: Record<string, string | undefined>;
  /** The user's configuration file (default: the user config directory's). */
  userConfigFile?: string;
  /** Stops the server as Ctrl-C does, when aborted. */
  signal?: AbortSignal;
}

/**
 * `agentloop serve`: the agent `agentloop` builds in this directory (provider, tools, plugins, MCP servers,
 * approval mode), served to a browser through `@agentloop/executor-http`: the page at `/`, AG-UI and the
 * AI SDK's stream under `/api`. Each session gets its own composed agent, kept until the session has been
 * idle for `[serve] session_idle_timeout` (its MCP servers then stop; the next run starts them again; the
 * handler keeps "allow for the session" apart); sessions are saved in the `[sessions]` store
 * (`agentloop --resume` picks them up), or in a temporary folder removed at the end with `store = "off"`.
 * Prints the page's address with its token; SIGINT and SIGTERM (or `options.signal`) cancel the runs,
 * end the sessions' plugins and MCP servers, close the store and resolve with 0. Bad settings resolve
 * with 2 before anything listens.
 */
export async function startServe(
  flags: CliFlags,
  serveFlags: ServeFlags,
  hooks: SessionHooks = {},
  options: ServeCommandOptions = {},
): Promise<number> {
  const output = options.output ?? process.stdout;
  const errorOutput = options.errorOutput ?? process.stderr;
  const environment = options.environment ?? process.env;
  const log = (message: string) => void errorOutput.write(`agentloop serve: ${message}\n`);
  const fail = (error: unknown) => {
    errorOutput.write(`✗ ${error instanceof Error ? error.message : String(error)}\n`);
    return isSetupError(error) ? EXIT_CODES.usage : EXIT_CODES.error;
  };
  const sources = { environment, ...(options.userConfigFile ? { userConfigFile: options.userConfigFile } : {}) };
  let settings: Awaited<ReturnType<typeof resolveSessionSettings>>;
  let serve: ReturnType<typeof resolveServeSettings>;
  try {
    settings = await resolveSessionSettings(flags, sources);
    serve = resolveServeSettings(serveFlags, settings.config.serve, environment);
  } catch (error) {
    return fail(error);
  }
  // Loaded on use, as ACP and MCP are: no other command needs the HTTP server.
  const [{ createAgentHandler }, { createAdaptorServer }, { composeAgent }, sessions] = await Promise.all([
    import('@agentloop/executor-http'),
    import('@hono/node-server'),
    import('./compose-agent.js'),
    openSessions(settings.cwd, options.userConfigFile, log),
  ]);
  const agents = new AgentsBySession({
    compose: (sessionId) => {
      const composed = composeAgent(settings, {
        errorOutput,
        environment,
        session: Promise.resolve({ store: sessions.store, id: sessionId }),
      });
      hooks.consoleGuard?.redactWith(composed.verboseLog.redact);
      return composed;
    },
    log,
    idleTimeoutMs: serve.sessionIdleTimeoutMs,
  });
  let handler: ReturnType<typeof createAgentHandler>;
  try {
    handler = createAgentHandler({
      createAgent: ({ sessionId }) => agents.agentOf(sessionId),
      sessions: sessions.store,
      ...(serve.token === undefined ? {} : { token: serve.token }),
      allowedOrigins: serve.allowedOrigins,
      onError: (error) => log(`a request failed: ${error instanceof Error ? error.message : String(error)}`),
    });
  } catch (error) {
    await sessions.close();
    return fail(error);
  }
  const server = createAdaptorServer({ fetch: handler.fetch }) as Server;
  try {
    await listen(server, serve.port, serve.host);
  } catch (error) {
    await sessions.close();
    return fail(listenError(error, serve.host, serve.port));
  }
  if (serve.warning) errorOutput.write(`⚠ ${serve.warning}\n`);
  const url = pageUrl(serve.host, (server.address() as AddressInfo).port, handler.token);
  output.write(`${url}\n`);
  log('open the address above (its #token= part is the key); Ctrl-C stops the server.');
  if (serve.open) {
    openInBrowser(url, environment).on('error', (error) =>
      log(`no browser could be opened (${error.message}): open the address yourself.`),
    );
  }

  await stopped(options.signal);
  log('stopping: the runs are cancelled and the sessions saved.');
  // No new connections; the runs' cancel ends their streams, then the idle connections are closed.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  await handler.close();
  server.closeAllConnections();
  await closed;
  await agents.dispose(log);
  await sessions.close();
  return EXIT_CODES.success;
}

/**
 * The store sessions are kept in: the `[sessions]` one, as the terminal's and the editor's sessions are;
 * with `store = "off"` (or a store that cannot be opened) a temporary folder, removed when the server
 * stops, since the handler reads what it shows from a store.
 */
async function openSessions(
  cwd: string,
  userConfigFile: string | undefined,
  log: (message: string) => void,
): Promise<{ store: SessionStore; close(): Promise<void> }> {
  const store = await openAcpSessionStore({ cwd, ...(userConfigFile ? { userConfigFile } : {}), log });
  if (store) {
    return {
      store,
      close: () =>
        store.close().catch((error: unknown) => log(`the session store did not close cleanly: ${String(error)}`)),
    };
  }
  const { JsonlSessionStore } = await import('@agentloop/sessions');
  const directory = mkdtempSync(join(tmpdir(), 'agentloop-serve-'));
  const temporary = new JsonlSessionStore({ directory });
  log('sessions are kept until the server stops, not saved ([sessions] store = "off").');
  return {
    store: temporary,
    close: async () => {
      await temporary.close().catch(() => undefined);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Why the server could not listen, as a setup error that says what to change. */
function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as { code?: unknown }).code;
  const setup = (message: string) => new CliError(message, { code: 'invalid_serve_settings', cause: error });
  if (code === 'EADDRINUSE') {
    return setup(
      `Port ${port} on ${host} is in use: give another with --port (or [serve] port), or stop what uses it.`,
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return setup(`${host} is not an address of this machine: give one of its addresses with --host, or leave it out.`);
  }
  if (code === 'EACCES') return setup(`Port ${port} needs privileges to listen on: give one above 1023 with --port.`);
  return error instanceof Error ? error : new Error(String(error));
}

/** Resolves on SIGINT, SIGTERM or the signal's abort, whichever comes first. */
function stopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * Opens the page in a browser: `$BROWSER` where it is set (as `xdg-open` and Python's `webbrowser` read
 * it), the platform's opener otherwise. The browser outlives the command.
 */
export function openInBrowser(url: string, environment: Record<string, string | undefined>): ChildProcess {
  const browser = environment.BROWSER?.split(':')[0];
  const [command, ...args] = browser
    ? [browser, url]
    : process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['rundll32', 'url.dll,FileProtocolHandler', url]
        : ['xdg-open', url];
  const child = spawn(command as string, args, { detached: true, stdio: 'ignore' });
  child.unref();
  return child;
}
