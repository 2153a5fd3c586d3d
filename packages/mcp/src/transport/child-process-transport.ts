import { type ChildProcess, spawn } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { signalChild, trackChild, untrack } from './live-children.js';
import type { StderrTail } from './stderr-tail.js';

/** How a server process ended. */
export interface ChildExit {
  /** Its exit code, when it exited by itself. */
  code: number | null;
  /** The signal that ended it, when one did. */
  signal: NodeJS.Signals | null;
}

/** What starts a server process. */
export interface ChildProcessTransportOptions {
  command: string;
  args?: readonly string[];
  /** Added to the few variables a server inherits (see McpStdioServerConfig.env). */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** Where the server's stderr goes; it is never shown on this process's terminal. */
  stderr: StderrTail;
}

/** The largest message a server may send (a file's content, a screenshot); the SDK's default is 10 MB. */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** How long a server may take to exit after its stdin closed, then after SIGTERM, before the next step. */
const EXIT_GRACE_MS = 2_000;

/**
 * The MCP stdio transport: a server started as a child process, JSON-RPC messages as lines on its stdin
 * and stdout. It does what the SDK's StdioClientTransport does (and uses its line framing) and adds what
 * an agent needs from a server it owns:
 * - the server runs in a process group of its own, so the terminal's Ctrl-C (which cancels a run) does
 *   not kill it, and closing it ends the whole group: `npx` and shell wrappers start the real server as a
 *   grandchild, which a signal to the wrapper alone would leave running;
 * - its exit code and signal, and the tail of its stderr, for the message that reports a crash;
 * - a synchronous kill at this process's exit (live-children.ts), so no server outlives its owner.
 */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: ChildProcessTransportOptions;
  readonly #readBuffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  #child: ChildProcess | undefined;
  #exit: ChildExit | undefined;
  #exited: Promise<void> | undefined;

  constructor(options: ChildProcessTransportOptions) {
    this.#options = options;
  }

  /** The server's process id, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the server ended, once it has. */
  get exit(): ChildExit | undefined {
    return this.#exit;
  }

  start(): Promise<void> {
    if (this.#child) throw new Error('The server process was already started; make a new transport to restart it.');
    const { command, args = [], env, cwd, stderr } = this.#options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env: { ...getDefaultEnvironment(), ...env },
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.#child = child;
      this.#exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        trackChild(child);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
      });
      child.once('close', () => {
        untrack(child);
        this.onclose?.();
      });
      child.stdout?.on('data', (chunk: Buffer) => this.#read(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => stderr.append(text));
      // A server that exits closes its pipes under a pending write: that is reported as its exit.
      child.stdin?.on('error', () => {});
      child.stdout?.on('error', () => {});
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable)
      return Promise.reject(new Error('The server process is not running.'));
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  /**
   * Ends the server: closes its stdin (the polite way, which MCP servers take as the end), then SIGTERM,
   * then SIGKILL to its process group, each after a short grace. Resolves once it has exited.
   */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || !this.#exited) return;
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      if (!(await settlesWithin(this.#exited, EXIT_GRACE_MS))) {
        signalChild(child, 'SIGTERM');
        if (!(await settlesWithin(this.#exited, EXIT_GRACE_MS))) signalChild(child, 'SIGKILL');
      }
      // The group may outlive its leader (a wrapper that exited on stdin's end): what is left gets SIGTERM.
      signalChild(child, 'SIGTERM');
    }
    await this.#exited;
    this.#readBuffer.clear();
  }

  #read(chunk: Buffer): void {
    try {
      this.#readBuffer.append(chunk);
    } catch {
      // One message larger than the buffer: its call cannot be answered, and what follows cannot be framed.
      this.onerror?.(new Error(`The server sent a message larger than ${MAX_MESSAGE_BYTES} bytes; it is restarted.`));
      void this.close();
      return;
    }
    for (;;) {
      try {
        const message = this.#readBuffer.readMessage();
        if (!message) return;
        this.onmessage?.(message);
      } catch (error) {
        // A line that is not JSON-RPC (a server that logs to stdout) is reported; the next line is read.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
