import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import { ndJsonStream } from '@agentclientprotocol/sdk';

/** One message on the wire, in the order it went. */
export interface TranscriptEntry {
  from: 'client' | 'agent';
  message: AnyMessage;
}

/** A zod schema, as far as the check needs it. */
interface Schema {
  safeParse(value: unknown): { success: true } | { success: false; error: { message: string } };
}

/** The SDK's generated zod schemas, by name (`zInitializeResponse`, `zSessionNotification`, ...). */
type Schemas = Record<string, Schema>;

/** The schema of the response to each method a client calls. */
const RESPONSES: Record<string, string> = {
  initialize: 'zInitializeResponse',
  authenticate: 'zAuthenticateResponse',
  'session/new': 'zNewSessionResponse',
  'session/load': 'zLoadSessionResponse',
  'session/list': 'zListSessionsResponse',
  'session/prompt': 'zPromptResponse',
  'session/set_mode': 'zSetSessionModeResponse',
  'session/set_config_option': 'zSetSessionConfigOptionResponse',
  'session/close': 'zCloseSessionResponse',
};

/** The schema of the params of each request and notification an agent sends. */
const AGENT_METHODS: Record<string, string> = {
  'session/update': 'zSessionNotification',
  'session/request_permission': 'zRequestPermissionRequest',
  'elicitation/create': 'zCreateElicitationRequest',
  'fs/read_text_file': 'zReadTextFileRequest',
  'fs/write_text_file': 'zWriteTextFileRequest',
  'terminal/create': 'zCreateTerminalRequest',
  'terminal/output': 'zTerminalOutputRequest',
  'terminal/release': 'zReleaseTerminalRequest',
  'terminal/wait_for_exit': 'zWaitForTerminalExitRequest',
  'terminal/kill': 'zKillTerminalRequest',
  '$/cancel_request': 'zCancelRequestNotification',
};

/**
 * Checks every message an agent sends against the Agent Client Protocol SDK's own zod schemas, for tests
 * that drive an agent as an editor would: each line must be one JSON-RPC 2.0 message; a request or
 * notification must be a method a client handles, with params of its schema; a response must answer a
 * request the client sent, with the result schema of that request's method (or a JSON-RPC error).
 *
 * The SDK generates the schemas but does not export them, so they are loaded from its `dist` by path; an
 * SDK that moved them fails `create()` with a message that says so.
 */
export class AcpProtocolCheck {
  /** What was wrong, one sentence each; empty when every message was valid. */
  readonly problems: string[] = [];
  /** Every message both ways, in order: what a captured exchange shows. */
  readonly transcript: TranscriptEntry[] = [];
  readonly #schemas: Schemas;
  /** The methods of the client's requests that wait for an answer, by id. */
  readonly #asked = new Map<string, string>();

  private constructor(schemas: Schemas) {
    this.#schemas = schemas;
  }

  /** Loads the SDK's schemas. */
  static async create(): Promise<AcpProtocolCheck> {
    const require = createRequire(import.meta.url);
    const entry = require.resolve('@agentclientprotocol/sdk');
    // dist/v1/stable/acp.js → dist/v1/schema/zod.gen.js
    const file = join(dirname(entry), '..', 'schema', 'zod.gen.js');
    let schemas: Schemas;
    try {
      schemas = (await import(pathToFileURL(file).href)) as Schemas;
    } catch (error) {
      throw new Error(
        `The ACP SDK's zod schemas are not at ${file} (${(error as Error).message}); the SDK's layout changed: update AcpProtocolCheck.`,
      );
    }
    return new AcpProtocolCheck(schemas);
  }

  /**
   * The client side of a connection over byte streams (a child process's stdin and stdout): the SDK's
   * newline-delimited JSON stream, with every line from the agent checked and every message of the client
   * noted.
   */
  clientStream(toAgent: WritableStream<Uint8Array>, fromAgent: ReadableStream<Uint8Array>): Stream {
    const decoder = new TextDecoder();
    let pending = '';
    const tap = new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        pending += decoder.decode(chunk, { stream: true });
        let newline = pending.indexOf('\n');
        while (newline !== -1) {
          this.checkLine(pending.slice(0, newline));
          pending = pending.slice(newline + 1);
          newline = pending.indexOf('\n');
        }
        controller.enqueue(chunk);
      },
      flush: () => {
        if (pending.trim() !== '') this.checkLine(pending);
      },
    });
    const stream = ndJsonStream(toAgent, fromAgent.pipeThrough(tap));
    const writer = stream.writable.getWriter();
    const writable = new WritableStream<AnyMessage>({
      write: (message) => {
        this.noteSent(message);
        return writer.write(message);
      },
      close: () => writer.close(),
      abort: (reason) => writer.abort(reason),
    });
    return { readable: stream.readable, writable };
  }

  /** Notes a message the client sends: a request's answer is checked against its method. */
  noteSent(message: AnyMessage): void {
    this.transcript.push({ from: 'client', message });
    if ('method' in message && 'id' in message && message.id !== null)
      this.#asked.set(String(message.id), message.method);
  }

  /** Checks one line the agent wrote. */
  checkLine(line: string): void {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.problems.push(`a line from the agent is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    this.check(message);
  }

  /** Checks one message the agent sent. */
  check(message: unknown): void {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      this.problems.push(`a message from the agent is not a JSON object: ${JSON.stringify(message)}`);
      return;
    }
    const record = message as Record<string, unknown>;
    this.transcript.push({ from: 'agent', message: record as AnyMessage });
    const shown = JSON.stringify(record).slice(0, 300);
    if (record.jsonrpc !== '2.0') this.problems.push(`not JSON-RPC 2.0: ${shown}`);
    if (typeof record.method === 'string') {
      const schema = AGENT_METHODS[record.method];
      if (schema === undefined) this.problems.push(`the agent sent a method no client handles: ${shown}`);
      else this.#validate(schema, record.params, shown);
      return;
    }
    if (!('id' in record)) {
      this.problems.push(`neither a request, a notification nor a response: ${shown}`);
      return;
    }
    if ('error' in record) {
      this.#validate('zError', record.error, shown);
      if (record.id !== null) this.#asked.delete(String(record.id));
      return;
    }
    const method = this.#asked.get(String(record.id));
    if (method === undefined) {
      this.problems.push(`a response to no request the client sent: ${shown}`);
      return;
    }
    this.#asked.delete(String(record.id));
    const schema = RESPONSES[method];
    if (schema === undefined) this.problems.push(`a response to ${method}, which the check does not know: ${shown}`);
    else this.#validate(schema, record.result, shown);
  }

  /** Throws with every problem found, if any. */
  assertValid(): void {
    if (this.problems.length > 0) {
      throw new Error(`The agent sent ${this.problems.length} invalid messages:\n${this.problems.join('\n')}`);
    }
  }

  #validate(name: string, value: unknown, shown: string): void {
    const schema = this.#schemas[name];
    if (!schema) {
      this.problems.push(`the SDK has no schema ${name}`);
      return;
    }
    const result = schema.safeParse(value);
    if (!result.success) this.problems.push(`${name} rejects ${shown}: ${result.error.message}`);
  }
}
