import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** What is kept for one server (one resource URL) between runs. */
export interface McpStoredCredentials {
  /** The tokens as the authorization server issued them (the SDK's issuer stamp included). */
  tokens?: OAuthTokens;
  /** When the access token expires (milliseconds since the epoch), where the server said. */
  expiresAt?: number;
  /** The client registration (dynamic, or a client ID metadata document's URL). */
  clientInformation?: OAuthClientInformationMixed;
  /** Where discovery found the authorization server, so that a later run skips it. */
  discoveryState?: OAuthDiscoveryState;
  /**
   * Scopes a server asked for that only a person's login can grant (a step-up met in a session), which
   * the next login asks for; dropped once a login got tokens.
   */
  pendingScope?: string;
}

/**
 * Where OAuth tokens and client registrations are kept, keyed by the server's resource URL (see
 * `resourceKey`) and never by a configuration's server name: a project that points a known name
 * elsewhere gets no token.
 */
export interface McpTokenStore {
  get(resource: string): Promise<McpStoredCredentials | undefined>;
  set(resource: string, credentials: McpStoredCredentials): Promise<void>;
  delete(resource: string): Promise<void>;
  /**
   * Runs `work` (a refresh of the server's tokens) while no other user of the same tokens does: other
   * processes sharing the file, other connections sharing the store. Without it, refreshes are not
   * serialized, and an authorization server that rotates refresh tokens may refuse all but the first.
   */
  withLock?<T>(resource: string, work: () => Promise<T>): Promise<T>;
}

/** A token store that forgets everything when the process ends: the default of `connectMcpServers`. */
export class MemoryTokenStore implements McpTokenStore {
  readonly #entries = new Map<string, McpStoredCredentials>();
  readonly #locks = new Map<string, Promise<unknown>>();

  async get(resource: string): Promise<McpStoredCredentials | undefined> {
    return this.#entries.get(resource);
  }

  async set(resource: string, credentials: McpStoredCredentials): Promise<void> {
    this.#entries.set(resource, credentials);
  }

  async delete(resource: string): Promise<void> {
    this.#entries.delete(resource);
  }

  withLock<T>(resource: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(resource) ?? Promise.resolve();
    const next = previous.then(work);
    const settled = next.catch(() => {});
    this.#locks.set(resource, settled);
    void settled.then(() => {
      if (this.#locks.get(resource) === settled) this.#locks.delete(resource);
    });
    return next;
  }
}

/**
 * The key of a server's credentials: its URL without query, fragment or credentials, and without a
 * trailing `/` (the resource indicator the MCP specification says a token is bound to).
 */
export function resourceKey(serverUrl: string | URL): string {
  const url = new URL(serverUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
