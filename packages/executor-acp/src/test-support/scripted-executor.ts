import type { Agent, SessionStore } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import type { ScriptStep } from '@agentloop/core/testing';
import { ScriptedProvider } from '@agentloop/core/testing';
import { createWorkspaceTools } from '@agentloop/workspace-tools';
import { AcpExecutor, type AcpExecutorOptions } from '../acp-executor.js';
import type { AcpAgentFactory, AcpSessionAgent, AcpSessionSetup } from '../session/agent-factory.js';

/** What the sessions' factory was given, and what it made. */
export interface MadeSessions {
  setups: AcpSessionSetup[];
  providers: ScriptedProvider[];
  agents: Agent[];
  /** How many sessions were disposed. */
  disposed: number;
}

/** How the scripted sessions are built. */
export interface ScriptedSessionOptions {
  /** Where the agents keep their sessions (`session: { store, id: setup.sessionId }`). */
  store?: SessionStore;
  /** More of the session agent: models, a mode. */
  extend?: (agent: Agent, setup: AcpSessionSetup) => Omit<AcpSessionAgent, 'agent' | 'dispose'>;
}

/**
 * An executor whose sessions run scripted models (the n-th session the n-th script) with the workspace
 * tools (run_command without a sandbox), through the editor's file system and terminals where offered.
 */
export function scriptedExecutor(
  scripts: ScriptStep[][],
  options: AcpExecutorOptions = {},
  sessions: ScriptedSessionOptions = {},
): { executor: AcpExecutor; made: MadeSessions } {
  const made: MadeSessions = { setups: [], providers: [], agents: [], disposed: 0 };
  const factory: AcpAgentFactory = (setup) => {
    const provider = new ScriptedProvider(scripts[made.setups.length] ?? [], { chunkSize: 1000 });
    made.setups.push(setup);
    made.providers.push(provider);
    const agent = new DefaultAgent(provider, {
      sessionId: setup.sessionId,
      ...(sessions.store ? { session: { store: sessions.store, id: setup.sessionId } } : {}),
      workspace: setup.cwd,
      tools: createWorkspaceTools({
        fileSystem: setup.fileSystem,
        command: { runner: setup.commandRunner, sandbox: { mode: 'off' } },
      }),
    });
    made.agents.push(agent);
    return {
      agent,
      ...sessions.extend?.(agent, setup),
      dispose: () => {
        made.disposed += 1;
      },
    };
  };
  return { executor: new AcpExecutor(factory, { log: () => undefined, ...options }), made };
}

/** A model step that completes the task. */
export const complete = (result: string): ScriptStep => ({
  toolCalls: [{ name: 'task_completion', arguments: { result } }],
});
