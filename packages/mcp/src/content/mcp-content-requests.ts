import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { McpServerError } from '../errors/index.js';
import { type McpPromptResult, toPromptResult } from '../prompts/mcp-prompt.js';
import { type McpResourceContents, toResourceContents } from '../resources/mcp-resource-contents.js';
import { ResourceSubscriptions } from '../resources/resource-subscriptions.js';

/** What the requests need of the connection that owns the client. */
export interface ContentRequestHost {
  /** The server's name as configured. */
  readonly name: string;
  /** The client once the server is ready, started first when it is down; rejects as a tool call would. */
  readyClient(): Promise<Client>;
  /** The client now, when connected. */
  currentClient(): Client | undefined;
  /** The failure of a request whose connection broke, as a tool call's (`what` names what was asked for). */
  connectionFailure(client: Client, what: string, error: unknown): Promise<McpServerError>;
  /** How long one request may take. */
  readonly timeoutMs: number;
}

/**
 * A server's prompt and resource requests (`prompts/get`, `resources/read`, `resources/subscribe`), on
 * the client of the connection that owns them, and who listens to which resource's changes.
 */
export class McpContentRequests {
  /** The listeners of each resource's changes; the connection tells them of `notifications/resources/updated`. */
  readonly subscriptions = new ResourceSubscriptions();
  readonly #host: ContentRequestHost;

  constructor(host: ContentRequestHost) {
    this.#host = host;
  }

  /**
   * Fills in one of the server's prompts (`prompts/get`), its text cleaned for the model and the terminal
   * (see toPromptResult). Starts the server first when it is down and its backoff has passed. Rejects with
   * an McpServerError: `prompt_error` when the server refuses (an unknown prompt, a missing argument), or
   * the server's failure as for a tool call.
   */
  async getPrompt(name: string, args: Record<string, string>): Promise<McpPromptResult> {
    const client = await this.#host.readyClient();
    try {
      return toPromptResult(await client.getPrompt({ name, arguments: args }, this.#options()));
    } catch (error) {
      throw await this.#failure(client, `prompt "${name}"`, 'prompt_error', error);
    }
  }

  /**
   * Reads one of the server's resources (`resources/read`) by its URI. Starts the server first when it is
   * down and its backoff has passed. Rejects with an McpServerError: `resource_error` when the server
   * refuses (an unknown URI), or the server's failure as for a tool call; with the signal's reason when it
   * is aborted.
   */
  async readResource(uri: string, signal?: AbortSignal): Promise<McpResourceContents[]> {
    const client = await this.#host.readyClient();
    try {
      const result = await client.readResource({ uri }, { ...this.#options(), ...(signal ? { signal } : {}) });
      return toResourceContents(result.contents);
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      throw await this.#failure(client, `resource <${uri}>`, 'resource_error', error);
    }
  }

  /**
   * Calls `listener` whenever the server says the resource at `uri` changed (`notifications/resources/updated`),
   * subscribing with `resources/subscribe` when the server offers subscriptions (`subscribed` says whether it
   * does; without them the listener is never called), and again after a restart (see subscribeAgain).
   * `unsubscribe` removes the listener, and tells the server once no one listens. Never rejects: a refused
   * subscription is `subscribed: false`.
   */
  async subscribeResource(
    uri: string,
    listener: (uri: string) => void,
  ): Promise<{ subscribed: boolean; unsubscribe: () => Promise<void> }> {
    const entry = this.subscriptions.add(uri, listener);
    const unsubscribe = async (): Promise<void> => {
      const client = this.#host.currentClient();
      if (entry.remove().last && client && canSubscribe(client)) {
        await client.unsubscribeResource({ uri }, this.#options()).catch(() => {});
      }
    };
    let client: Client;
    try {
      client = await this.#host.readyClient();
    } catch {
      // Down for now: the start that brings it back subscribes again, as after any restart.
      return { subscribed: false, unsubscribe };
    }
    if (!canSubscribe(client)) return { subscribed: false, unsubscribe };
    if (!entry.first) return { subscribed: true, unsubscribe };
    try {
      await client.subscribeResource({ uri }, this.#options());
      return { subscribed: true, unsubscribe };
    } catch {
      return { subscribed: false, unsubscribe };
    }
  }

  /** A restarted server knows nothing of the subscriptions made before: they are made again. Never rejects. */
  async subscribeAgain(client: Client, options: { timeout?: number }): Promise<void> {
    if (!canSubscribe(client)) return;
    await Promise.all(
      this.subscriptions.uris().map((uri) => client.subscribeResource({ uri }, options).catch(() => undefined)),
    );
  }

  #options(): { timeout: number } {
    return { timeout: this.#host.timeoutMs };
  }

  async #failure(
    client: Client,
    what: string,
    code: 'prompt_error' | 'resource_error',
    error: unknown,
  ): Promise<McpServerError> {
    if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
      // The server answered: it refused what was asked for.
      const { name } = this.#host;
      return new McpServerError(name, `MCP server "${name}" could not give ${what}: ${error.message}`, code, error);
    }
    return this.#host.connectionFailure(client, what, error);
  }
}

function canSubscribe(client: Client): boolean {
  return client.getServerCapabilities()?.resources?.subscribe === true;
}
