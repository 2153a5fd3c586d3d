import { type ChildProcess, spawn } from 'node:child_process';
import type {
  ClientCapabilities,
  ClientConnection,
  ClientContext,
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionOutcome,
  RequestPermissionRequest,
  SessionNotification,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import { client, ndJsonStream, RequestError } from '@agentclientprotocol/sdk';
import type { AcpExecutor } from '../acp-executor.js';
import { AcpProtocolCheck } from '../testing/index.js';

/** How the test editor behaves. */
export interface TestEditorOptions {
  /** What the editor says it can do. Default: nothing beyond the baseline. */
  capabilities?: ClientCapabilities;
  /**
   * Answers a permission request; `signal` aborts when the agent withdraws it. Default: the first option
   * (allow once).
   */
  permission?: (
    request: RequestPermissionRequest,
    signal: AbortSignal,
  ) => RequestPermissionOutcome | Promise<RequestPermissionOutcome>;
  /** Answers `elicitation/create` (advertise `capabilities.elicitation` too). Default: declines. */
  elicit?: (request: CreateElicitationRequest) => CreateElicitationResponse | Promise<CreateElicitationResponse>;
}

/** A command run in one of the editor's terminals. */
interface TestTerminal {
  command: string;
  args: string[];
  child: ChildProcess;
  output: string;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
  released: boolean;
}

/**
 * An editor for tests: the ACP SDK's client side connected to an AcpExecutor in this process over a
 * newline-delimited JSON stream, with every message the agent sends checked against the protocol's schemas
 * (AcpProtocolCheck). It records updates and permission requests, keeps buffers for `fs/*`, and runs
 * `terminal/*` commands as child processes.
 */
export class TestEditor {
  readonly notifications: SessionNotification[] = [];
  readonly permissions: RequestPermissionRequest[] = [];
  readonly elicitations: CreateElicitationRequest[] = [];
  /** The editor's buffers, by absolute path: what `fs/read_text_file` returns and `fs/write_text_file` sets. */
  readonly buffers = new Map<string, string>();
  readonly terminals = new Map<string, TestTerminal>();
  readonly check: AcpProtocolCheck;
  readonly #connection: ClientConnection;
  readonly #toAgent: WritableStream<Uint8Array>;
  readonly #listening: Promise<void>;

  private constructor(
    check: AcpProtocolCheck,
    connection: ClientConnection,
    toAgent: WritableStream<Uint8Array>,
    listening: Promise<void>,
  ) {
    this.check = check;
    this.#connection = connection;
    this.#toAgent = toAgent;
    this.#listening = listening;
  }

  /** Connects a test editor to the executor, which starts listening. */
  static async connect(executor: AcpExecutor, options: TestEditorOptions = {}): Promise<TestEditor> {
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const toEditor = new TransformStream<Uint8Array, Uint8Array>();
    const listening = executor.listen(ndJsonStream(toEditor.writable, toAgent.readable));
    const check = await AcpProtocolCheck.create();
    let editor: TestEditor | undefined;
    const self = () => editor as TestEditor;
    let nextTerminal = 1;
    const app = client({ name: 'test-editor' })
      .onNotification('session/update', ({ params }) => void self().notifications.push(params))
      .onRequest('session/request_permission', async ({ params, signal }) => {
        self().permissions.push(params);
        const outcome = options.permission
          ? await options.permission(params, signal)
          : { outcome: 'selected' as const, optionId: params.options[0]?.optionId ?? 'none' };
        return { outcome };
      })
      .onRequest('elicitation/create', async ({ params }) => {
        self().elicitations.push(params);
        return options.elicit ? await options.elicit(params) : { action: 'decline' };
      })
      .onRequest('fs/read_text_file', ({ params }) => {
        const content = self().buffers.get(params.path);
        if (content === undefined) throw RequestError.resourceNotFound(params.path);
        return { content };
      })
      .onRequest('fs/write_text_file', ({ params }) => {
        self().buffers.set(params.path, params.content);
        return {};
      })
      .onRequest('terminal/create', ({ params }) => {
        const terminalId = `term-${nextTerminal++}`;
        const child = spawn(params.command, params.args ?? [], {
          cwd: params.cwd ?? undefined,
          env: Object.fromEntries((params.env ?? []).map(({ name, value }) => [name, value])),
        });
        const terminal: TestTerminal = {
          command: params.command,
          args: params.args ?? [],
          child,
          output: '',
          released: false,
          exit: new Promise((resolve) => child.on('close', (exitCode, signal) => resolve({ exitCode, signal }))),
        };
        child.stdout?.on('data', (chunk) => (terminal.output += chunk));
        child.stderr?.on('data', (chunk) => (terminal.output += chunk));
        self().terminals.set(terminalId, terminal);
        return { terminalId };
      })
      .onRequest('terminal/wait_for_exit', async ({ params }) => self().terminal(params.terminalId).exit)
      .onRequest('terminal/output', async ({ params }) => {
        const terminal = self().terminal(params.terminalId);
        const done = terminal.child.exitCode !== null || terminal.child.signalCode !== null;
        return { output: terminal.output, truncated: false, ...(done ? { exitStatus: await terminal.exit } : {}) };
      })
      .onRequest('terminal/kill', ({ params }) => {
        self().terminal(params.terminalId).child.kill('SIGKILL');
        return {};
      })
      .onRequest('terminal/release', ({ params }) => {
        const terminal = self().terminal(params.terminalId);
        terminal.child.kill('SIGKILL');
        terminal.released = true;
        return {};
      });
    const connection = app.connect(check.clientStream(toAgent.writable, toEditor.readable));
    editor = new TestEditor(check, connection, toAgent.writable, listening);
    await connection.agent.request('initialize', {
      protocolVersion: 1,
      clientCapabilities: options.capabilities ?? {},
      clientInfo: { name: 'test-editor', version: '1.0.0' },
    });
    return editor;
  }

  /** Resolves once the executor stopped listening. */
  get listening(): Promise<void> {
    return this.#listening;
  }

  /** Calls the agent. */
  get agent(): ClientContext {
    return this.#connection.agent;
  }

  /** A new session in `cwd`; resolves with its id. */
  async newSession(cwd: string): Promise<string> {
    const { sessionId } = await this.agent.request('session/new', { cwd, mcpServers: [] });
    return sessionId;
  }

  /** Sends a prompt of text. */
  prompt(sessionId: string, text: string) {
    return this.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  }

  /** The updates of one session, in order. */
  updates(sessionId: string): SessionUpdate[] {
    return this.notifications.filter((item) => item.sessionId === sessionId).map((item) => item.update);
  }

  /** The agent's message text of a session so far, chunks joined. */
  messageText(sessionId: string): string {
    return this.updates(sessionId)
      .map((update) =>
        update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' ? update.content.text : '',
      )
      .join('');
  }

  /** Waits until a session has an update that passes `test`. */
  async waitForUpdate(sessionId: string, test: (update: SessionUpdate) => boolean): Promise<SessionUpdate> {
    for (let attempt = 0; attempt < 500; attempt += 1) {
      const found = this.updates(sessionId).find(test);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no such update in session ${sessionId}: ${JSON.stringify(this.updates(sessionId))}`);
  }

  terminal(terminalId: string): TestTerminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) throw RequestError.resourceNotFound(terminalId);
    return terminal;
  }

  /** Closes the editor's end, as an editor that quits does; resolves once the executor has finished. */
  async close(): Promise<void> {
    this.#connection.close();
    await this.#toAgent.close().catch(() => undefined);
    await this.#listening;
    for (const terminal of this.terminals.values()) terminal.child.kill('SIGKILL');
  }
}
