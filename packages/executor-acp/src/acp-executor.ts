import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import type { AgentConnection, Implementation, Stream } from '@agentclientprotocol/sdk';
import { agent as agentApp, ndJsonStream } from '@agentclientprotocol/sdk';
import type { ApprovalMode, ApprovalRule, Executor, SessionStore } from '@agentloop/core';
import { AcpConnection, newSessionId } from './acp-connection.js';
import { queueUntilInitialized } from './queue-until-initialized.js';
import type { AcpAgentFactory } from './session/agent-factory.js';
import { listSessions } from './session/list-sessions.js';

/** Options of an AcpExecutor. */
export interface AcpExecutorOptions {
  /** The approval mode a session starts in, unless its factory says otherwise. Default `ask`. */
  defaultMode?: ApprovalMode;
  /** Approval rules that come before the mode in every session (`{ tool, action, command? }`). */
  approvalRules?: readonly ApprovalRule[];
  /** The name and version the editor shows. Default: `agentloop` and this package's version. */
  agentInfo?: Implementation;
  /**
   * What becomes of the MCP servers an editor names in `session/new`: `connect` (the default) starts or
   * reaches them through @agentloop/mcp and keeps their tools in the session's agent (stdio, HTTP and SSE
   * servers; closed with the session); `factory` leaves them to the agent factory (`setup.mcpServers`)
   * and advertises stdio servers only.
   */
  mcpServers?: 'connect' | 'factory';
  /**
   * Where the executor logs what the editor is not told (an update it could not send, a cancel of an
   * unknown session). Default: stderr. Never stdout, which carries the protocol.
   */
  log?: (message: string) => void;
  /** Makes session ids. Default: `sess_` and a random UUID. */
  createSessionId?: () => string;
  /**
   * Where the factory's agents keep their sessions (`session: { store, id: setup.sessionId }`): with it,
   * the executor advertises and answers `session/load`, resuming a stored session through the factory
   * (`setup.resume`) and replaying its conversation to the editor. Default: none, `loadSession: false`.
   */
  sessionStore?: SessionStore;
}

/**
 * agentloop as an Agent Client Protocol agent: an editor (Zed, a JetBrains IDE, Neovim) starts the program
 * and drives it over JSON-RPC on stdio. Each `session/new` gets its own agent from `agentFactory`, in the
 * editor's working directory; a prompt runs the loop and streams its text, reasoning and tool calls; tool
 * calls that need approval ask the editor (`session/request_permission`); the editor's modes are the
 * approval modes, and its model selector switches the provider where the factory offers models.
 *
 * ```ts
 * await new AcpExecutor(({ sessionId, cwd, fileSystem, commandRunner }) =>
 *   new DefaultAgent(provider, {
 *     sessionId,
 *     workspace: cwd,
 *     tools: createWorkspaceTools({ fileSystem, command: { runner: commandRunner } }),
 *   }),
 * ).listen();
 * ```
 */
export class AcpExecutor implements Executor {
  readonly #factory: AcpAgentFactory;
  readonly #options: AcpExecutorOptions;
  readonly #connections = new Set<AgentConnection>();

  constructor(agentFactory: AcpAgentFactory, options: AcpExecutorOptions = {}) {
    this.#factory = agentFactory;
    this.#options = options;
  }

  /**
   * Serves one editor over `stream` (default: this process's stdin and stdout, as newline-delimited
   * JSON-RPC) until the editor closes it; then cancels the running turns and releases every session's
   * agent, and resolves. Requests sent right behind `initialize`, before its answer, wait for it. A malformed message, an unknown method or a request for an unknown session is
   * answered with its JSON-RPC error, and the connection goes on.
   */
  async listen(stream: Stream = stdioStream()): Promise<void> {
    const log = this.#options.log ?? ((message: string) => void process.stderr.write(`agentloop acp: ${message}\n`));
    const state = new AcpConnection({
      factory: this.#factory,
      defaultMode: this.#options.defaultMode ?? 'ask',
      approvalRules: this.#options.approvalRules ?? [],
      agentInfo: this.#options.agentInfo ?? { name: 'agentloop', title: 'agentloop', version: packageVersion() },
      connectMcpServers: (this.#options.mcpServers ?? 'connect') === 'connect',
      log,
      createSessionId: this.#options.createSessionId ?? newSessionId,
      sessionStore: this.#options.sessionStore,
    });
    const app = agentApp({ name: 'agentloop' })
      .onRequest('initialize', ({ params }) => state.initialize(params.clientCapabilities))
      .onRequest('session/new', ({ params }) => state.newSession(params))
      .onRequest('session/prompt', ({ params, signal }) =>
        state.session(params.sessionId).prompt(params.prompt, signal),
      )
      .onNotification('session/cancel', ({ params }) => state.cancel(params.sessionId))
      .onRequest('session/set_mode', ({ params }) => {
        state.session(params.sessionId).setMode(params.modeId);
        return {};
      })
      .onRequest('session/set_config_option', async ({ params }) => ({
        configOptions: await state.session(params.sessionId).setConfigOption(params),
      }))
      .onRequest('session/close', async ({ params }) => {
        await state.closeSession(params.sessionId);
        return {};
      });
    // Without a store there is nothing to load: the method stays unknown (-32601), as advertised.
    const store = this.#options.sessionStore;
    if (store) {
      app.onRequest('session/load', ({ params }) => state.loadSession(params));
      app.onRequest('session/list', ({ params }) => listSessions(store, params));
    }
    const connection = app.connect(queueUntilInitialized(stream));
    state.attach(connection);
    this.#connections.add(connection);
    try {
      await connection.closed;
    } finally {
      this.#connections.delete(connection);
      await state.closeAll();
    }
  }

  /**
   * Ends every connection as if the editor had closed it (on SIGTERM, say): `listen()` then cancels the
   * turns, releases the sessions and resolves.
   */
  close(): void {
    for (const connection of this.#connections) connection.close();
  }

  /** Executor: serves the editor on stdio until it closes the connection; resolves with 0. */
  async run(): Promise<number> {
    await this.listen();
    return 0;
  }
}

/** This process's stdin and stdout as an ACP stream of newline-delimited JSON. */
function stdioStream(): Stream {
  return ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  );
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}
