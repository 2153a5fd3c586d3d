import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from '@agentloop/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentsBySession, openInBrowser } from './serve-command.js';

let folder: string | undefined;

afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

describe('openInBrowser', () => {
  it('opens the address with the program $BROWSER names, the address as its one argument', async () => {
    folder = mkdtempSync(join(tmpdir(), 'agentloop-browser-'));
    const browser = join(folder, 'browser.sh');
    const opened = join(folder, 'opened.txt');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s|' "$@" > ${JSON.stringify(opened)}\n`);
    chmodSync(browser, 0o755);
    const url = 'http://127.0.0.1:4680/#token=abc123';
    const child = openInBrowser(url, { BROWSER: browser });
    const status = await new Promise((resolve) => child.on('exit', resolve));
    expect(status).toBe(0);
    expect(readFileSync(opened, 'utf8')).toBe(`${url}|`);
  });

  it('reports a $BROWSER that cannot run through the child’s error event, never by throwing', async () => {
    const child = openInBrowser('http://127.0.0.1:4680/', { BROWSER: '/nonexistent/browser' });
    const error = await new Promise<Error>((resolve) => child.on('error', resolve));
    expect((error as Error & { code?: string }).code).toBe('ENOENT');
  });
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
    const agents = new AgentsBySession(
      (sessionId) => {
        built.push(sessionId);
        const next = composition({ sessionId });
        made.push(next.made);
        return next.composed;
      },
      () => undefined,
    );
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
    const agents = new AgentsBySession(
      () => {
        attempts++;
        return attempts === 1 ? failed.composed : composition({ ok: true }).composed;
      },
      (line) => lines.push(line),
    );
    await expect(agents.agentOf('s1')).rejects.toThrow('plugin @acme/tools not found');
    expect(lines).toEqual(['the agent of session s1 could not be built: plugin @acme/tools not found']);
    expect(failed.made.disposed).toBe(1);
    expect(await agents.agentOf('s1')).toEqual({ ok: true });
    expect(attempts).toBe(2);
  });
});
