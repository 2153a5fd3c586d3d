import type { ClientCapabilities, McpServer } from '@agentclientprotocol/sdk';
import type { Agent, ApprovalMode, LLMProvider } from '@agentloop/core';
import type { CommandRunner, WorkspaceFileSystem } from '@agentloop/workspace-tools';
import type { AcpModelChoice } from './session-settings.js';

/** What the editor asked for when it opened a session: the agent factory builds the session's agent from it. */
export interface AcpSessionSetup {
  /** The session's id; give it to the agent as its `sessionId`. */
  sessionId: string;
  /** The editor's working directory (absolute): the agent's `workspace`. */
  cwd: string;
  /**
   * True for `session/load`: `sessionId` names a session of the executor's `sessionStore`, which the agent
   * must resume (`session: { store, id: sessionId }`). False for `session/new`: a new session, kept under
   * `sessionId` when the factory gives its agents a store.
   */
  resume: boolean;
  /**
   * The MCP servers the editor wants the agent to use. The executor does not connect them: a factory that
   * can (with an MCP client) does, and the executor's `mcp` option says which transports to advertise.
   */
  mcpServers: readonly McpServer[];
  /** What the editor can do, as it said in `initialize`. */
  clientCapabilities: ClientCapabilities;
  /**
   * The editor's buffers, when it offers `fs/read_text_file` and `fs/write_text_file`: hand it to the
   * workspace tools (`createWorkspaceTools({ fileSystem })`), so the model sees unsaved changes.
   */
  fileSystem: WorkspaceFileSystem | undefined;
  /**
   * The editor's terminals, when it offers `terminal/*`: hand it to run_command
   * (`createWorkspaceTools({ command: { runner: commandRunner } })`), so the user watches commands run.
   */
  commandRunner: CommandRunner | undefined;
}

/** The models a session can switch between, through the editor's model selector. */
export interface AcpModels {
  available: readonly AcpModelChoice[];
  /** The id of the model the agent starts with. */
  current: string;
  /** The provider of a model; the executor switches the agent to it (`agent.setProvider`). */
  select(id: string): LLMProvider | Promise<LLMProvider>;
}

/** A session's agent, with what the executor needs to know about it beyond the Agent itself. */
export interface AcpSessionAgent {
  agent: Agent;
  /** The approval mode the session starts in. Default: the executor's `defaultMode`. */
  mode?: ApprovalMode;
  /**
   * Puts the agent in an approval mode (the session's start and each mode the editor selects). Default:
   * `agent.setApproval({ mode, rules })` with the executor's `approvalRules`.
   */
  setMode?(mode: ApprovalMode): void;
  /** The models the editor may switch to. Without them, the session offers no model selector. */
  models?: AcpModels;
  /** Releases what the session holds (plugins, MCP connections) when it closes or the connection ends. */
  dispose?(): void | Promise<void>;
}

/**
 * Builds the agent of one editor session; called once per `session/new`. Return the agent, or an
 * AcpSessionAgent to offer models, an approval mode or a dispose hook. A factory that throws (no provider
 * configured, a bad configuration) fails `session/new` with its message.
 */
export type AcpAgentFactory = (setup: AcpSessionSetup) => Agent | AcpSessionAgent | Promise<Agent | AcpSessionAgent>;
