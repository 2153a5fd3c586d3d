import { afterAll, afterEach } from 'vitest';
import { CliWorkspace, type CliWorkspaceOptions } from './cli-fixture.js';
import type { ScriptEntry, ScriptedOpenAIServer } from './scripted-openai-server.mjs';
import { startScriptedOpenAIServer } from './scripted-openai-server.mjs';
import { TmuxSession } from './tmux-session.js';

/**
 * What an end-to-end test of the built command holds while it runs: its workspace, its scripted model
 * server and its tmux sessions, each ended after the test (tmux sessions, then the server, then the
 * workspace), so no test sees another's leftovers.
 */
export class TerminalTest {
  #sessions = 0;
  #tmux: TmuxSession[] = [];
  #server: ScriptedOpenAIServer | undefined;
  #workspace: CliWorkspace | undefined;

  /** @param name names this file's tmux sessions and servers, so that two files running at once never share one */
  constructor(readonly name: string) {}

  /** A new workspace for the test, removed after it. */
  workspace(options?: CliWorkspaceOptions): CliWorkspace {
    this.#workspace = new CliWorkspace(options);
    return this.#workspace;
  }

  /** A scripted OpenAI-compatible server for the test, closed after it. */
  async server(script?: ScriptEntry[]): Promise<ScriptedOpenAIServer> {
    this.#server = await startScriptedOpenAIServer(script);
    return this.#server;
  }

  /**
   * Starts a shell command line in a new tmux session, ended after the test. Each session gets a tmux
   * server of its own: when a test ends its session, a shared server may be shutting down just as the
   * next one starts ("server exited unexpectedly").
   */
  startTmux(commandLine: string, size?: { width: number; height: number }): TmuxSession {
    this.#sessions += 1;
    const tmux = new TmuxSession(`${this.name}-${process.pid}-${this.#sessions}`, this.#socket(this.#sessions));
    this.#tmux.push(tmux);
    tmux.start(commandLine, size);
    return tmux;
  }

  /** Ends what the test that ran started. */
  async endTest(): Promise<void> {
    for (const tmux of this.#tmux.splice(0)) tmux.kill();
    await this.#server?.close();
    this.#workspace?.remove();
    this.#server = undefined;
    this.#workspace = undefined;
  }

  /** Ends every tmux server the file's tests started, also one a failed kill left behind. */
  endFile(): void {
    for (let session = 1; session <= this.#sessions; session++) TmuxSession.killServer(this.#socket(session));
  }

  #socket(session: number): string {
    return `agentloop-e2e-${this.name}-${process.pid}-${session}`;
  }
}

/**
 * A TerminalTest for the calling file or describe block, ended after each of its tests and after all of
 * them. Call it at the top level of the file (or of the block).
 */
export function useTerminalTest(name: string): TerminalTest {
  const test = new TerminalTest(name);
  afterEach(() => test.endTest());
  afterAll(() => test.endFile());
  return test;
}
