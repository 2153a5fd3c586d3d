import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The decoded JSON body (undefined when empty). */
  body: unknown;
}

/** Writes one scripted answer. */
export type Responder = (response: ServerResponse, request: RecordedRequest) => void | Promise<void>;

/**
 * A local HTTP server on 127.0.0.1 that answers each request with the next scripted responder and records
 * what it was sent. A request with no responder left gets a 418, which no provider retries.
 */
export class FixtureServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: Responder[] = [];
  private connectionCount = 0;

  private constructor(private readonly server: Server) {
    server.on('connection', () => this.connectionCount++);
  }

  /** TCP connections clients opened since the start or the last reset: fewer than requests means keep-alive. */
  get connections(): number {
    return this.connectionCount;
  }

  /** Starts a server on a free port. */
  static async start(): Promise<FixtureServer> {
    let fixture: FixtureServer | undefined;
    const server = createServer((request, response) => {
      void fixture?.handle(request, response);
    });
    fixture = new FixtureServer(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fixture;
  }

  /** The server's base URL, e.g. `http://127.0.0.1:41234`. */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Queues responders, answered in order. */
  reply(...responders: Responder[]): this {
    this.queue.push(...responders);
    return this;
  }

  /** Responders not used yet. */
  get pending(): number {
    return this.queue.length;
  }

  /** Forgets requests and queued responders. */
  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
    this.connectionCount = 0;
  }

  /** Stops the server, cutting stalled responses. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const piece of request) text += piece;
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      path: request.url ?? '',
      headers: request.headers,
      body: text === '' ? undefined : JSON.parse(text),
    };
    this.requests.push(recorded);
    const responder = this.queue.shift();
    if (!responder) {
      response.writeHead(418, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: { type: 'test_error', message: `no scripted response for request ${this.requests.length}` },
        }),
      );
      return;
    }
    await responder(response, recorded);
  }
}
