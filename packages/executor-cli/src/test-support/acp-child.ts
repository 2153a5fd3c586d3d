import { type ChildProcess, spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import type {
  AnyMessage,
  ClientConnection,
  RequestPermissionOutcome,
  RequestPermissionRequest,
  SessionNotification,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import { client, RequestError } from '@agentclientprotocol/sdk';
import { AcpProtocolCheck } from '@agentloop/executor-acp/testing';
import { AGENTLOOP_BIN, type CliWorkspace } from './cli-fixture.js';

/** How the editor answers a permission request; `signal` aborts when the agent withdraws it. */
export type PermissionAnswer = (
  request: RequestPermissionRequest,
  signal: AbortSignal,
) => RequestPermissionOutcome | Promise<RequestPermissionOutcome>;

/**
 * `agentloop acp` as an editor runs it: the built command as a child process in the workspace, the ACP
 * SDK's client side on its stdin and stdout, and every line it writes on stdout checked against the
 * protocol's schemas (AcpProtocolCheck). It records the updates and permission requests it gets.
 */
export class AcpChild {
  readonly child: ChildProcess;
  readonly check: AcpProtocolCheck;
  readonly connection: ClientConnection;
  readonly notifications: SessionNotification[] = [];
  readonly permissions: RequestPermissionRequest[] = [];
  /** The editor's buffers by absolute path, for `fs/read_text_file` and `fs/write_text_file`. */
  readonly buffers = new Map<string, string>();
  /** What the command wrote on stderr. */
  stderr = '';
  /** Resolves with the exit status once the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(child: ChildProcess, check: AcpProtocolCheck, connection: ClientConnection) {
    this.child = child;
    this.check = check;
    this.connection = connection;
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.stderr?.on('data', (chunk) => {
      this.stderr += chunk;
    });
  }

  /** Starts `agentloop acp` with `args` in the workspace, and the editor's side of the connection. */
  static async start(
    workspace: CliWorkspace,
    args: readonly string[],
    options: { permission?: PermissionAnswer } = {},
  ): Promise<AcpChild> {
    const child = spawn(process.execPath, [AGENTLOOP_BIN, 'acp', ...args], {
      cwd: workspace.project,
      env: workspace.environment(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const check = await AcpProtocolCheck.create();
    let self: AcpChild | undefined;
    const toAgent = new WritableStream<Uint8Array>({
      write: (chunk) =>
        new Promise<void>((resolve, reject) =>
          child.stdin?.write(chunk, (error) => (error ? reject(error) : resolve())),
        ),
      close: () => void child.stdin?.end(),
    });
    const fromAgent = Readable.toWeb(child.stdout as Readable) as ReadableStream<Uint8Array>;
    const app = client({ name: 'e2e-editor' })
      .onNotification('session/update', ({ params }) => void self?.notifications.push(params))
      .onRequest('session/request_permission', async ({ params, signal }) => {
        self?.permissions.push(params);
        const outcome = options.permission
          ? await options.permission(params, signal)
          : { outcome: 'selected' as const, optionId: params.options[0]?.optionId ?? 'none' };
        return { outcome };
      })
      .onRequest('fs/read_text_file', ({ params }) => {
        const content = self?.buffers.get(params.path);
        if (content === undefined) throw RequestError.resourceNotFound(params.path);
        return { content };
      })
      .onRequest('fs/write_text_file', ({ params }) => {
        self?.buffers.set(params.path, params.content);
        return {};
      });
    const connection = app.connect(check.clientStream(toAgent, fromAgent));
    self = new AcpChild(child, check, connection);
    return self;
  }

  /** `initialize`: without the editor's file system and terminals, unless `fs` says so. */
  initialize(fs = false) {
    return this.connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal: false },
      clientInfo: { name: 'e2e-editor', version: '1.0.0' },
    });
  }

  async newSession(cwd: string): Promise<string> {
    return (await this.connection.agent.request('session/new', { cwd, mcpServers: [] })).sessionId;
  }

  prompt(sessionId: string, text: string) {
    return this.connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  }

  /** Writes a line to the command's stdin as it is, bypassing the SDK (malformed input). */
  writeRaw(line: string): void {
    try {
      const parsed = JSON.parse(line) as AnyMessage;
      this.check.noteSent(parsed);
    } catch {
      // Not JSON: the point of the line.
    }
    this.child.stdin?.write(`${line}\n`);
  }

  updates(sessionId: string): SessionUpdate[] {
    return this.notifications.filter((item) => item.sessionId === sessionId).map((item) => item.update);
  }

  messageText(sessionId: string): string {
    return this.updates(sessionId)
      .map((update) =>
        update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? update.content.text : '',
      )
      .join('');
  }

  /** Waits until a session has an update that passes `test`. */
  async waitForUpdate(sessionId: string, test: (update: SessionUpdate) => boolean): Promise<SessionUpdate> {
    for (let attempt = 0; attempt < 1000; attempt += 1) {
      const found = this.updates(sessionId).find(test);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no such update in session ${sessionId}; stderr: ${this.stderr}`);
  }

  /** Waits until the agent answered the raw request with this id. */
  async answerTo(id: number): Promise<Record<string, unknown>> {
    for (let attempt = 0; attempt < 500; attempt += 1) {
      const found = this.check.transcript.find(
        (entry) =>
          entry.from === 'agent' && 'id' in entry.message && entry.message.id === id && !('method' in entry.message),
      );
      if (found) return found.message as unknown as Record<string, unknown>;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no answer to request ${id}; stderr: ${this.stderr}`);
  }

  /** Closes stdin, as an editor that quits does, and waits for the process to exit. */
  async end(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.child.stdin?.end();
    return this.exited;
  }

  /** Kills the process if it is still running. */
  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
