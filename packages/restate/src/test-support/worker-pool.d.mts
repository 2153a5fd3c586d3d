import { type ChildProcess } from 'node:child_process';
import { type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
/** A worker process: a Node program that serves durable agents with `restate.serve` on `port`. */
export interface Worker {
  readonly id: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** What it wrote on stdout and stderr. */
  output(): string;
  /** SIGKILLs it and resolves once it is gone. */
  kill(): Promise<void>;
}
/**
 * Workers behind one address, as a load balancer or a Kubernetes Service puts them: Restate knows one
 * deployment (the pool's `uri`), and each request it opens (one HTTP/2 stream per invocation attempt) goes
 * to the next live worker. A worker that dies resets the streams it had, so Restate retries them, and the
 * retry reaches another worker.
 */
export declare class WorkerPool {
  readonly port: number;
  /** The address to register with Restate. */
  get uri(): string;
  /** The workers that are alive. */
  get workers(): readonly Worker[];
  static start(): Promise<WorkerPool>;
  /**
   * Starts a worker process running `script` with `environment` (plus `PORT`, `WORKER_ID`) and resolves
   * once it says `listening` on stdout; it then receives requests.
   */
  startWorker(script: string, id: string, environment?: Record<string, string>): Promise<Worker>;
  /** Kills every worker and closes the pool. */
  close(): Promise<void>;
  /** Passes one stream to the next live worker, both ways, and resets it when that worker fails. */
  forward(request: Http2ServerRequest, response: Http2ServerResponse): void;
}
