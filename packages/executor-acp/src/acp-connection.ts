import { randomUUID } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type {
  AgentConnection,
  ClientCapabilities,
  Implementation,
  InitializeResponse,
  LoadSessionRequest,
  LoadSessionResponse,
  NewSessionRequest,
  NewSessionResponse,
} from '@agentclientprotocol/sdk';
import { PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk';
import type { Agent, ApprovalMode, ApprovalRule, SessionStore } from '@agentloop/core';
import { SessionStoreError } from '@agentloop/core';
import type { McpServers } from '@agentloop/mcp';
import { createClientCommandRunner } from './client/client-command-runner.js';
import { createClientFileSystem } from './client/client-file-system.js';
import { AcpSession } from './session/acp-session.js';
import type { AcpAgentFactory, AcpSessionAgent } from './session/agent-factory.js';
import { editorElicitation } from './session/editor-elicitation.js';
import { connectEditorMcpServers, type EditorMcpServers } from './session/editor-mcp-servers.js';
import { agentMcpServers, mcpPromptCommands } from './session/mcp-prompt-commands.js';
import { SessionOutbox } from './session/session-outbox.js';
import { availableCommands } from './session/slash-commands.js';
import { toRequestError } from './session/to-request-error.js';
import { replayUpdates } from './updates/replay-updates.js';
import { SessionUpdateMapper } from './updates/session-update-mapper.js';

/** What a connection's sessions are built with: the executor's options, resolved. */
export interface ConnectionSettings {
  factory: AcpAgentFactory;
  defaultMode: ApprovalMode;
  approvalRules: readonly ApprovalRule[];
  agentInfo: Implementation;
  /** Connect the editor's MCP servers (through @agentloop/mcp), rather than leave them to the factory. */
  connectMcpServers: boolean;
  log: (message: string) => void;
  createSessionId: () => string;
  /** Where the factory's agents keep their sessions; without it, no `session/load`. */
  sessionStore: SessionStore | undefined;
}

/**
 * One editor's connection: what it said in `initialize`, and its sessions, each with its own agent. The
 * handlers of AcpExecutor call into it; it outlives none of them.
 */
export class AcpConnection {
  readonly #settings: ConnectionSettings;
  readonly #sessions = new Map<string, AcpSession>();
  /** The ids of sessions being opened: reserved before the first await, so that one id opens once. */
  readonly #opening = new Set<string>();
  /** True once the editor has gone (closeAll): a session that finishes opening then is closed at once. */
  #closed = false;
  #connection: AgentConnection | undefined;
  #clientCapabilities: ClientCapabilities = {};

  constructor(settings: ConnectionSettings) {
    this.#settings = settings;
  }

  /** The connection the sessions talk to the editor over; set once it is open. */
  attach(connection: AgentConnection): void {
    this.#connection = connection;
  }

  /** `initialize`: the protocol version and what this agent honestly supports. */
  initialize(clientCapabilities: ClientCapabilities | undefined): InitializeResponse {
    this.#clientCapabilities = clientCapabilities ?? {};
    return {
      protocolVersion: PROTOCOL_VERSION,
      agentInfo: this.#settings.agentInfo,
      authMethods: [],
      agentCapabilities: {
        // Sessions are resumed where the factory's agents keep them in the executor's store.
        loadSession: this.#settings.sessionStore !== undefined,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        // Every agent takes stdio MCP servers; @agentloop/mcp also reaches HTTP and SSE ones.
        mcpCapabilities: { http: this.#settings.connectMcpServers, sse: this.#settings.connectMcpServers },
        // Listing reads the same store that loading resumes from.
        sessionCapabilities: { close: {}, ...(this.#settings.sessionStore ? { list: {} } : {}) },
      },
    };
  }

  /** `session/new`: a session in the editor's directory, its agent built by the factory. */
  async newSession(request: NewSessionRequest): Promise<NewSessionResponse> {
    const session = await this.#open(this.#settings.createSessionId(), request, false);
    return session.newSessionResponse();
  }

  /**
   * `session/load`: resumes a session of the store through the factory, replays its conversation as
   * updates, and answers once they are all sent. An id the store does not have is `-32002`.
   */
  async loadSession(request: LoadSessionRequest): Promise<LoadSessionResponse> {
    const store = this.#settings.sessionStore;
    if (!store) throw RequestError.methodNotFound('session/load');
    if (this.#sessions.has(request.sessionId) || this.#opening.has(request.sessionId)) {
      throw RequestError.invalidRequest(
        { sessionId: request.sessionId },
        'this session is open on this connection already; go on with session/prompt',
      );
    }
    try {
      await store.load(request.sessionId);
    } catch (error) {
      if (SessionStoreError.isInstance(error) && (error as SessionStoreError).code === 'session_not_found') {
        throw RequestError.sessionNotFound(request.sessionId);
      }
      throw toRequestError(error);
    }
    const session = await this.#open(request.sessionId, request, true);
    const { modes, configOptions } = session.newSessionResponse();
    return { modes, configOptions };
  }

  // Builds a session's agent (connecting the editor's MCP servers), and for a resumed one opens its stored
  // session and replays it; the slash commands follow the answer, which tells the editor the session's id.
  async #open(sessionId: string, request: NewSessionRequest, resume: boolean): Promise<AcpSession> {
    // A relative directory would be resolved against this process's, which is not the editor's project.
    if (typeof request.cwd !== 'string' || !isAbsolute(request.cwd)) {
      throw RequestError.invalidParams(
        { cwd: request.cwd },
        `cwd must be an absolute path (the project's directory, as the editor has it), not ${JSON.stringify(request.cwd)}`,
      );
    }
    if (this.#opening.has(sessionId)) {
      throw RequestError.invalidRequest({ sessionId }, 'this session is being opened on this connection already');
    }
    this.#opening.add(sessionId);
    try {
      return await this.#build(sessionId, request, resume);
    } finally {
      this.#opening.delete(sessionId);
    }
  }

  async #build(sessionId: string, request: NewSessionRequest, resume: boolean): Promise<AcpSession> {
    const connection = this.#connection;
    if (!connection) throw RequestError.internalError(undefined, 'the connection is not open yet');
    const { log } = this.#settings;
    const outbox = new SessionOutbox(sessionId, connection.client, log);
    const mapper = new SessionUpdateMapper({ cwd: request.cwd });
    const capabilities = this.#clientCapabilities;
    const editorFiles = capabilities.fs?.readTextFile === true && capabilities.fs.writeTextFile === true;
    let built: AcpSessionAgent;
    try {
      built = asSessionAgent(
        await this.#settings.factory({
          sessionId,
          cwd: request.cwd,
          resume,
          mcpServers: request.mcpServers,
          clientCapabilities: capabilities,
          fileSystem: editorFiles ? createClientFileSystem(outbox) : undefined,
          commandRunner: capabilities.terminal === true ? createClientCommandRunner(outbox, mapper) : undefined,
        }),
      );
    } catch (error) {
      throw toRequestError(error);
    }
    let session: AcpSession;
    let mcpServers: McpServers[] = [];
    try {
      if (resume) await openStoredSession(built.agent, sessionId);
      const mcp = this.#settings.connectMcpServers
        ? await connectEditorMcpServers(
            request.mcpServers,
            request.cwd,
            built.agent,
            log,
            request.additionalDirectories,
          )
        : undefined;
      if (mcp) built = withClose(built, mcp);
      // The editor's servers, and those the agent was composed with (the CLI's configured ones).
      mcpServers = await agentMcpServers(built.agent, { loaded: mcp !== undefined });
      session = new AcpSession({
        mcpServers,
        sessionId,
        cwd: request.cwd,
        built,
        outbox,
        mapper,
        defaultMode: this.#settings.defaultMode,
        approvalRules: this.#settings.approvalRules,
        elicitation: editorElicitation(capabilities),
        log,
      });
    } catch (error) {
      await built.dispose?.();
      throw toRequestError(error);
    }
    try {
      if (resume) {
        for (const update of replayUpdates(built.agent.memory.messages(), mapper)) outbox.send(update);
        await outbox.flush();
      }
      // The editor went while the session was opening: nothing will close it later, so it is closed now.
      if (this.#closed) throw RequestError.internalError(undefined, 'the connection closed while the session opened');
    } catch (error) {
      await session.close().catch(() => {});
      throw toRequestError(error);
    }
    this.#sessions.set(sessionId, session);
    // The MCP servers' prompts are commands too, sent again whenever a server's list changes; the servers
    // end with the session, and their listeners with them.
    const sendCommands = () =>
      outbox.send({
        sessionUpdate: 'available_commands_update',
        availableCommands: [...availableCommands(), ...mcpPromptCommands(mcpServers)],
      });
    for (const servers of mcpServers) servers.onContentChanged(sendCommands);
    setImmediate(sendCommands);
    return session;
  }

  /** The session of a request; `-32002` (resource not found) with the id for one that does not exist. */
  session(sessionId: string): AcpSession {
    const session = this.#sessions.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  }

  /** `session/cancel`: cancels the session's turn; an unknown session is ignored, as a notification must be. */
  cancel(sessionId: string): void {
    const session = this.#sessions.get(sessionId);
    if (session) session.cancel();
    else this.#settings.log(`session/cancel for an unknown session ${sessionId}: ignored`);
  }

  /** `session/close`: cancels the session's turn and releases its agent. */
  async closeSession(sessionId: string): Promise<void> {
    const session = this.session(sessionId);
    this.#sessions.delete(sessionId);
    await session.close();
  }

  /** Closes every session, when the editor has gone: their turns are cancelled and their agents released. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    const results = await Promise.allSettled(sessions.map((session) => session.close()));
    for (const result of results) {
      if (result.status === 'rejected') this.#settings.log(`a session did not close cleanly: ${String(result.reason)}`);
    }
  }
}

/** The default id of a session. */
export function newSessionId(): string {
  return `sess_${randomUUID()}`;
}

// Opens a resumed agent's stored session: its conversation, usage and pending question come back.
async function openStoredSession(agent: Agent, sessionId: string): Promise<void> {
  const resumable = agent as Agent & { openSession?: () => Promise<unknown> };
  if (typeof resumable.openSession !== 'function') {
    throw RequestError.internalError(
      { sessionId },
      'the agent factory built an agent that cannot resume a session; give it session: { store, id: setup.sessionId }',
    );
  }
  await resumable.openSession();
}

// The session's dispose also closes the editor's MCP servers, after the factory's own.
function withClose(built: AcpSessionAgent, mcp: EditorMcpServers): AcpSessionAgent {
  return {
    ...built,
    dispose: async () => {
      try {
        await built.dispose?.();
      } finally {
        await mcp.close();
      }
    },
  };
}

function asSessionAgent(value: Agent | AcpSessionAgent): AcpSessionAgent {
  return 'agent' in value && typeof (value as Partial<Agent>).run !== 'function'
    ? (value as AcpSessionAgent)
    : { agent: value as Agent };
}
