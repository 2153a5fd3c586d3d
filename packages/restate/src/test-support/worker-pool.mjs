// Plain JavaScript (types in worker-pool.d.mts), so that the tests and bench/durable.bench.mjs share it.
import { spawn } from 'node:child_process';
import { connect, constants, createServer } from 'node:http2';
import { freePort } from './free-port.mjs';
/**
 * Workers behind one address, as a load balancer or a Kubernetes Service puts them: Restate knows one
 * deployment (the pool's `uri`), and each request it opens (one HTTP/2 stream per invocation attempt) goes
 * to the next live worker. A worker that dies resets the streams it had, so Restate retries them, and the
 * retry reaches another worker.
 */
export class WorkerPool {
  #server;
  #workers = [];
  #sessions = new Map();
  /** Restate's connections to the pool, closed with it (Restate keeps them open). */
  #incoming = new Set();
  #next = 0;
  port;
  constructor(server, port) {
    this.#server = server;
    this.port = port;
  }
  /** The address to register with Restate. */
  get uri() {
    return `http://127.0.0.1:${this.port}`;
  }
  /** The workers that are alive. */
  get workers() {
    return this.#workers;
  }
  static async start() {
    const port = await freePort();
    let pool;
    const server = createServer((request, response) => pool?.forward(request, response));
    pool = new WorkerPool(server, port);
    const incoming = pool.#incoming;
    server.on('session', (session) => {
      incoming.add(session);
      session.on('close', () => incoming.delete(session));
      session.on('error', () => {});
    });
    await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
    return pool;
  }
  /**
   * Starts a worker process running `script` with `environment` (plus `PORT`, `WORKER_ID`) and resolves
   * once it says `listening` on stdout; it then receives requests.
   */
  async startWorker(script, id, environment = {}) {
    const port = await freePort();
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, ...environment, PORT: String(port), WORKER_ID: id },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const listening = new Promise((resolve, reject) => {
      child.stdout?.on('data', (chunk) => {
        output += chunk;
        if (output.includes('listening')) resolve();
      });
      child.stderr?.on('data', (chunk) => (output += chunk));
      child.once('exit', (code, signal) =>
        reject(new Error(`worker ${id} exited (${code ?? signal}) before listening:\n${output}`)),
      );
    });
    const worker = {
      id,
      port,
      child,
      output: () => output,
      kill: async () => {
        this.#remove(worker);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      },
    };
    await listening;
    this.#workers.push(worker);
    return worker;
  }
  /** Kills every worker and closes the pool. */
  async close() {
    await Promise.all([...this.#workers].map((worker) => worker.kill()));
    for (const session of this.#sessions.values()) session.destroy();
    for (const session of this.#incoming) session.destroy();
    await new Promise((resolve) => this.#server.close(() => resolve()));
  }
  #remove(worker) {
    const index = this.#workers.indexOf(worker);
    if (index >= 0) this.#workers.splice(index, 1);
    this.#sessions.get(worker.id)?.destroy();
    this.#sessions.delete(worker.id);
  }
  #session(worker) {
    let session = this.#sessions.get(worker.id);
    if (!session || session.closed || session.destroyed) {
      session = connect(`http://127.0.0.1:${worker.port}`);
      session.on('error', () => {});
      this.#sessions.set(worker.id, session);
    }
    return session;
  }
  /** Passes one stream to the next live worker, both ways, and resets it when that worker fails. */
  forward(request, response) {
    const worker = this.#workers[this.#next++ % Math.max(1, this.#workers.length)];
    if (!worker) {
      response.stream.close(constants.NGHTTP2_REFUSED_STREAM);
      return;
    }
    const headers = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!name.startsWith(':') || name === ':method' || name === ':path') headers[name] = value;
    }
    const upstream = this.#session(worker).request(headers);
    const reset = () => {
      if (!response.stream.destroyed) response.stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    };
    upstream.on('response', (upstreamHeaders) => {
      const forwarded = {};
      for (const [name, value] of Object.entries(upstreamHeaders)) {
        if (!name.startsWith(':') || name === ':status') forwarded[name] = value;
      }
      response.stream.respond(forwarded);
      upstream.pipe(response.stream);
    });
    upstream.on('error', reset);
    upstream.on('aborted', reset);
    upstream.on('close', () => {
      if (upstream.rstCode !== constants.NGHTTP2_NO_ERROR) reset();
    });
    response.stream.on('error', () => upstream.close(constants.NGHTTP2_CANCEL));
    request.stream.pipe(upstream);
  }
}
