/**
 * What shows an agent's run to someone and takes their input: the CLI's terminal session, an editor over
 * ACP, a web server. The composition root resolves it under `TOKENS.Executor` and runs it.
 */
export interface Executor {
  /** Runs until the user or the client ends the session; resolves with an exit status (0 for success). */
  run(): Promise<number>;
}
