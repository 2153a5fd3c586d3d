import { resolve } from 'node:path';
import type { Agent, AgentSessionOptions, SessionStore } from '@agentloop/core';
import type { AcpModels, AcpSessionAgent, AcpSessionSetup } from '@agentloop/executor-acp';
import type { CliFlags, SessionSettings } from '../config/index.js';
import { resolveSessionSettings } from '../config/index.js';
import { sessionStoreLocation, sessionsConfigOf } from '../session-store/index.js';
import type { ComposedAgent } from './compose-agent.js';
import { openAcpSessionStore } from './open-acp-session-store.js';
import type { SessionHooks } from './start-session.js';

/** What `agentloop acp` reads and writes; injectable for tests. */
export interface AcpCommandOptions {
  /** Where logs go: never stdout, which carries the protocol. Default: stderr. */
  errorOutput?: NodeJS.WritableStream;
  environment?: Record<string, string | undefined>;
  /** The user's configuration file, for the `[sessions]` table (default: the user config directory's). */
  userConfigFile?: string;
}

/**
 * `agentloop acp`: serves an editor (Zed's `agent_servers`, a JetBrains IDE, Neovim) over the Agent Client
 * Protocol on stdin and stdout until the editor closes stdin. Each session gets the agent `agentloop`
 * itself would build in the editor's directory (settings from the flags and the configuration files found
 * there, the provider, the workspace tools, the plugins and MCP servers of the configuration), in the
 * configured approval mode, with the configured models to switch between; the editor's own MCP servers
 * join it. Settings that cannot be used (no provider, a bad file) fail that session, not the command.
 * Sessions are saved in the store of the `[sessions]` table (as the terminal's are), so `session/load`
 * resumes one after an editor restart, and `agentloop --resume` can pick it up in the terminal; with
 * `store = "off"` nothing is saved and `loadSession` is false. SIGTERM and SIGINT end it as a closed stdin
 * does: turns cancelled, sessions released, the store closed. Resolves with 0.
 */
export async function startAcp(
  flags: CliFlags,
  hooks: SessionHooks = {},
  options: AcpCommandOptions = {},
): Promise<number> {
  const errorOutput = options.errorOutput ?? process.stderr;
  const environment = options.environment ?? process.env;
  const log = (message: string) => void errorOutput.write(`agentloop acp: ${message}\n`);
  if (process.stdin.isTTY) {
    log(
      'speaks the Agent Client Protocol on stdin and stdout, for an editor to start (Zed: agent_servers); Ctrl-D ends it.',
    );
  }
  const [{ AcpExecutor }, { composeAgent }, store] = await Promise.all([
    import('@agentloop/executor-acp'),
    import('./compose-agent.js'),
    openAcpSessionStore({
      cwd: resolve(flags.cwd ?? '.'),
      ...(options.userConfigFile ? { userConfigFile: options.userConfigFile } : {}),
      log,
    }),
  ]);
  const executor = new AcpExecutor(
    async (setup) => {
      // The editor's directory is the session's working directory, whatever --cwd said.
      const settings = await resolveSessionSettings(
        { ...flags, cwd: setup.cwd },
        { environment, ...(options.userConfigFile ? { userConfigFile: options.userConfigFile } : {}) },
      );
      const session = acpSessionOptions(store, setup, settings);
      const composed = composeAgent(settings, {
        errorOutput,
        environment,
        // The editor's buffers and terminals, where it offers them: the model sees unsaved changes, the
        // user watches commands run.
        editorTools: { fileSystem: setup.fileSystem, runner: setup.commandRunner },
        ...(session ? { session: Promise.resolve(session) } : {}),
      });
      hooks.consoleGuard?.redactWith(composed.verboseLog.redact);
      return sessionAgent(settings, composed);
    },
    { log, ...(store ? { sessionStore: store } : {}) },
  );
  const stop = () => executor.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await executor.listen();
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    // listen() has closed every session (each giving its write lock up) before it resolved.
    await store?.close().catch((error: unknown) => log(`the session store did not close cleanly: ${String(error)}`));
  }
  return 0;
}

/**
 * Where an editor session's agent keeps its conversation: the command's store, under the session's id.
 * `session/load` always resumes from it (the editor asked for a saved session); a new session is saved
 * unless the configuration of its directory says `[sessions] store = "off"`.
 */
export function acpSessionOptions(
  store: SessionStore | undefined,
  setup: Pick<AcpSessionSetup, 'sessionId' | 'resume'>,
  settings: Pick<SessionSettings, 'config'>,
): AgentSessionOptions | undefined {
  if (!store) return undefined;
  if (!setup.resume && !sessionStoreLocation(sessionsConfigOf(settings.config))) return undefined;
  return { store, id: setup.sessionId };
}

async function sessionAgent(settings: SessionSettings, composed: ComposedAgent): Promise<AcpSessionAgent> {
  let agent: Agent;
  try {
    agent = await composed.agent;
  } catch (error) {
    await composed.dispose().catch(() => undefined);
    throw error;
  }
  return {
    agent,
    mode: composed.toolSafety.mode,
    setMode: (mode) => composed.toolSafety.setMode(agent, mode),
    models: configuredModels(settings, composed),
    dispose: composed.dispose,
  };
}

/**
 * The models an editor may switch a session to: the one in use and each `[providers.<name>]` table of the
 * configuration that names a model, as `provider:model` (what `/model` takes).
 */
export function configuredModels(
  settings: Pick<SessionSettings, 'provider' | 'config'>,
  composed: Pick<ComposedAgent, 'switchModel'>,
): AcpModels {
  const current = `${settings.provider.name}:${settings.provider.model}`;
  const ids = [current];
  for (const [name, entry] of Object.entries(settings.config.providers)) {
    if (entry.model && !ids.includes(`${name}:${entry.model}`)) ids.push(`${name}:${entry.model}`);
  }
  return {
    available: ids.map((id) => ({ id, name: id })),
    current,
    select: async (id) => (await composed.switchModel(id)).provider,
  };
}
