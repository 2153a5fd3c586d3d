import type { SessionStore } from '@agentloop/core';
import type { Principal } from '../runs/principal.js';
import type { CreateAgent } from '../runs/run-manager.js';

/** Options of `createAgentHandler`. */
export interface AgentHandlerOptions {
  /**
   * Builds the agent of a session, called once per run: give it `session: { store: sessions, id: sessionId }`
   * so it resumes the conversation from the store. The agent's session is closed when the run ends.
   */
  createAgent: CreateAgent;
  /** Where sessions are kept: the handler lists and reads them here, and keeps who owns each. */
  sessions: SessionStore;
  /**
   * The bearer token every API request must carry (`Authorization: Bearer <token>`). Default: a random one
   * per handler, in `handler.token`. Ignored when `authenticate` is given.
   */
  token?: string;
  /**
   * Decides who a request is from, for apps with their own users: return the principal, or `undefined`
   * (or throw) to refuse the request with a 401. Replaces the bearer token check.
   */
  authenticate?: (request: Request) => Principal | undefined | Promise<Principal | undefined>;
  /**
   * Browser origins (`https://app.example.com`) that may call the API from another origin. Default: none;
   * a request whose `Origin` is neither the server's own nor listed gets a 403.
   */
  allowedOrigins?: readonly string[];
  /** The largest request body accepted, in bytes; a larger one gets a 413. Default 1 MiB. */
  maxBodyBytes?: number;
  /** A path prefix for every route, e.g. `/agent` for `/agent/api/agui`. Default: none. */
  basePath?: string;
  /**
   * What a dropped response (a closed tab, a lost connection) does to its run when no other response is
   * attached: `cancel` it (default), or let it `continue` to the end, saved in the session.
   */
  onDisconnect?: 'cancel' | 'continue';
  /** How long an approval request waits for its answer before the call is denied. Default 5 minutes. */
  approvalTimeoutMs?: number;
  /**
   * How many of a run's events are kept while no response is attached to it (for the next one that
   * attaches); older ones are dropped. Default 1000.
   */
  maxBufferedEvents?: number;
  /** Called with each error the handler answered with a 500, for the server's log. Default: console.error. */
  onError?: (error: unknown) => void;
}
