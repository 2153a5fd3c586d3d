/**
 * The restate-server binary of `@restatedev/restate-server`'s platform package, run directly rather than
 * through the package's Node wrapper, so that a SIGKILL reaches the server itself.
 */
export declare function restateServerBinary(): string | undefined;
/** True when the tests can start a real Restate server here; otherwise says once why they skip. */
export declare function restateServerAvailable(): boolean;
/** A real Restate server on 127.0.0.1, with its own data directory. */
export interface RestateServer {
  /** Where requests to services go, e.g. `http://127.0.0.1:PORT`. */
  readonly ingressUrl: string;
  /** The admin API (deployments, invocations). */
  readonly adminUrl: string;
  /** The server's data directory: kept across `restart()`. */
  readonly baseDir: string;
  /** What the server wrote on stdout and stderr, for a failing test's message. */
  output(): string;
  /** Registers a worker's endpoint (`POST /deployments`), replacing an earlier one at the same address. */
  register(uri: string): Promise<void>;
  /** Kills the server (SIGKILL), keeping its data directory. */
  kill(): Promise<void>;
  /** Starts the server again on the same ports and data directory, and waits for it to be healthy. */
  restart(): Promise<void>;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}
/**
 * Starts `restate-server` on free 127.0.0.1 ports with a new data directory, quiet and local (no
 * telemetry, no update check, TCP only), and resolves once its admin API and ingress answer. Invocations
 * are retried after 50 ms, growing to 1 s at most, so that a test that kills a worker does not wait long
 * for the run to go on elsewhere.
 */
export declare function startRestateServer(): Promise<RestateServer>;
