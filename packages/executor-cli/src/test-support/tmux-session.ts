import { execFileSync, spawnSync } from 'node:child_process';
import { systemToolAvailable } from './system-tools.js';

let tmuxRuns: boolean | undefined;

/**
 * True when tmux can be run; where it cannot, the end-to-end tests skip, saying why, or fail under
 * AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1, as in CI.
 */
export function tmuxAvailable(): boolean {
  tmuxRuns ??= systemToolAvailable(
    'tmux',
    spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0
      ? undefined
      : 'tmux is not installed (Debian and Ubuntu: apt-get install tmux)',
  );
  return tmuxRuns;
}

/**
 * A detached tmux session on its own server socket, running one command in a 120×40 terminal, for
 * driving the built `agentloop` command like a person: type, press keys, read the screen. The command
 * runs in a shell that prints `[exit N]` when it ends and then waits, so the screen and the exit status
 * stay readable.
 */
export class TmuxSession {
  constructor(
    readonly name: string,
    private readonly socket: string,
  ) {}

  /** Starts the command (a shell command line). */
  start(commandLine: string, size = { width: 120, height: 40 }): void {
    this.#tmux(
      'new-session',
      '-d',
      '-s',
      this.name,
      '-x',
      String(size.width),
      '-y',
      String(size.height),
      `${commandLine}; echo "[exit $?]"; sleep 600`,
    );
  }

  /** Types text literally (no key names). */
  type(text: string): void {
    this.#tmux('send-keys', '-t', this.name, '-l', text);
  }

  /** Presses keys by tmux name: `Enter`, `C-c`, `C-d`, `Down`. */
  press(...keys: string[]): void {
    this.#tmux('send-keys', '-t', this.name, ...keys);
  }

  /** The screen and its scrollback, wrapped lines joined. */
  capture(): string {
    return this.#tmux('capture-pane', '-p', '-J', '-t', this.name, '-S', '-500').replace(/\s+$/, '');
  }

  /**
   * Polls the screen until it matches, and returns it; fails after the timeout with the screen in the
   * message.
   */
  async waitFor(pattern: RegExp | string, timeoutMs = 20_000): Promise<string> {
    const matches = (screen: string) => (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen));
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = this.capture();
      if (matches(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    throw new Error(`Timed out after ${timeoutMs} ms waiting for ${String(pattern)}. The screen:\n${screen}`);
  }

  /** The exit status printed when the command ended; waits for it. */
  async exitStatus(timeoutMs = 20_000): Promise<number> {
    const screen = await this.waitFor(/\[exit \d+\]/, timeoutMs);
    return Number(/\[exit (\d+)\]/.exec(screen)?.[1]);
  }

  /** Ends the session (and its command), and the session's tmux server. */
  kill(): void {
    spawnSync('tmux', ['-L', this.socket, 'kill-session', '-t', this.name], { stdio: 'ignore' });
    TmuxSession.killServer(this.socket);
  }

  /** Ends the tmux server of a socket. */
  static killServer(socket: string): void {
    spawnSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
  }

  #tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }
}
