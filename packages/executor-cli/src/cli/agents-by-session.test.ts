import type { Agent } from '@agentloop/core';
import { DefaultAgent, defineTool } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentsBySession } from './agents-by-session.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('AgentsBySession', () => {
  /** A composition whose agent is `agent` (or fails with `failure`), counting its disposals. */
  function composition(agent: object, failure?: Error) {
    const made = { disposed: 0 };
    return {
      made,
      composed: {
        agent: failure ? Promise.reject(failure) : Promise.resolve(agent as Agent),
        dispose: async () => {
          made.disposed++;
        },
      },
    };
  }

  it("keeps each session's agent for its next runs, and ends them all on dispose", async () => {
    const built: string[] = [];
    const made: { disposed: number }[] = [];
    const agents = new AgentsBySession({
      compose: (sessionId) => {
        built.push(sessionId);
        const next = composition({ sessionId });
        made.push(next.made);
        return next.composed;
      },
      log: () => undefined,
    });
    const first = await agents.agentOf('s1');
    expect(await agents.agentOf('s1')).toBe(first);
    expect(await agents.agentOf('s2')).not.toBe(first);
    expect(built).toEqual(['s1', 's2']);
    await agents.dispose(() => undefined);
    expect(made.map((entry) => entry.disposed)).toEqual([1, 1]);
  });

  it('logs a composition that fails, releases it, and builds the session again on its next run', async () => {
    const lines: string[] = [];
    let attempts = 0;
    const failed = composition({}, new Error('plugin @acme/tools not found'));
    const agents = new AgentsBySession({
      compose: () => {
        attempts++;
        return attempts === 1 ? failed.composed : composition({ ok: true }).composed;
      },
      log: (line) => lines.push(line),
    });
    await expect(agents.agentOf('s1')).rejects.toThrow('plugin @acme/tools not found');
    expect(lines).toEqual(['the agent of session s1 could not be built: plugin @acme/tools not found']);
    expect(failed.made.disposed).toBe(1);
    expect(await agents.agentOf('s1')).toEqual({ ok: true });
    expect(attempts).toBe(2);
  });

  describe('with an idle timeout', () => {
    const IDLE_MS = 60_000;

    /** Sessions whose agents are real agents on a script, counting the compositions and disposals. */
    function idleAgents(steps: () => ConstructorParameters<typeof ScriptedProvider>[0]) {
      const disposed: string[] = [];
      const built: string[] = [];
      const lines: string[] = [];
      const agents = new AgentsBySession({
        compose: (sessionId) => {
          built.push(sessionId);
          return {
            agent: Promise.resolve(new DefaultAgent(new ScriptedProvider(steps()))),
            dispose: async () => {
              disposed.push(sessionId);
            },
          };
        },
        log: (line) => lines.push(line),
        idleTimeoutMs: IDLE_MS,
      });
      return { agents, disposed, built, lines };
    }
    const answer = [{ toolCalls: [{ name: 'converse', arguments: { message: 'hi' } }] }];

    it('ends an agent idle for the timeout after its last run, and builds it again for the next run', async () => {
      vi.useFakeTimers();
      const { agents, disposed, built, lines } = idleAgents(() => [...answer, ...answer]);
      const agent = await agents.agentOf('s1');
      await agent.run('hello');
      await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
      expect(disposed).toEqual([]);
      expect(await agents.agentOf('s1')).toBe(agent);
      await agent.run('again');
      // The second run started the idle time again.
      await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
      expect(disposed).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(disposed).toEqual(['s1']);
      expect(agents.size).toBe(0);
      expect(lines).toEqual([
        'session s1 was idle for 1 minute: its agent and MCP servers ended; its next run starts them again.',
      ]);
      expect(await agents.agentOf('s1')).not.toBe(agent);
      expect(built).toEqual(['s1', 's1']);
    });

    it('never ends an agent while its run goes on, however long it waits for an approval', async () => {
      vi.useFakeTimers();
      const { agents, disposed } = idleAgents(() => [
        { toolCalls: [{ id: 'c1', name: 'touch', arguments: {} }] },
        ...answer,
      ]);
      const agent = await agents.agentOf('s1');
      agent.registerTool(
        defineTool({ name: 'touch', description: 'Touches.', parameters: z.object({}), execute: () => 'ok' }),
      );
      agent.setApproval({ decide: () => ({ action: 'ask', reason: 'touch changes things' }) });
      const asked = new Promise<string>((resolve) =>
        agent.on('approval-requested', (event) => resolve(event.requestId)),
      );
      const running = agent.run('hello');
      const requestId = await asked;
      await vi.advanceTimersByTimeAsync(IDLE_MS * 3);
      expect(agent.running).toBe(true);
      expect(disposed).toEqual([]);
      agent.answerApproval(requestId, { decision: 'allow-once' });
      expect((await running).exit).toBe('converse');
      await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
      expect(disposed).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(disposed).toEqual(['s1']);
    });

    it("waits in dispose for an idle agent's disposal still under way", async () => {
      vi.useFakeTimers();
      // The session's MCP servers take a while to stop: serve must not resolve (and the process exit)
      // while the idle one's are still stopping.
      let finishDisposal: () => void = () => undefined;
      const ended: string[] = [];
      const agents = new AgentsBySession({
        compose: () => ({
          agent: Promise.resolve(new DefaultAgent(new ScriptedProvider(answer))),
          dispose: () =>
            new Promise<void>((resolve) => {
              finishDisposal = () => {
                ended.push('s1');
                resolve();
              };
            }),
        }),
        log: () => undefined,
        idleTimeoutMs: IDLE_MS,
      });
      const agent = await agents.agentOf('s1');
      await agent.run('hello');
      await vi.advanceTimersByTimeAsync(IDLE_MS);
      expect(agents.size).toBe(0);
      let disposed = false;
      const disposing = agents
        .dispose(() => undefined)
        .then(() => {
          disposed = true;
        });
      await vi.advanceTimersByTimeAsync(0);
      expect(disposed).toBe(false);
      finishDisposal();
      await disposing;
      expect(ended).toEqual(['s1']);
    });

    it('keeps the agents until dispose with no timeout (0), and dispose stops the timers', async () => {
      vi.useFakeTimers();
      const kept = new AgentsBySession({
        compose: () => ({ agent: Promise.resolve({} as Agent), dispose: async () => {} }),
        log: () => undefined,
        idleTimeoutMs: 0,
      });
      await kept.agentOf('s1');
      expect(vi.getTimerCount()).toBe(0);
      const { agents, disposed } = idleAgents(() => answer);
      await agents.agentOf('s1');
      expect(vi.getTimerCount()).toBe(1);
      await agents.dispose(() => undefined);
      expect(disposed).toEqual(['s1']);
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
