import type { ElicitationRequest, ElicitationResult, JsonSchema } from '@agentloop/tools';
import { describeThrown } from '@agentloop/tools';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  type CreateMessageResult,
  ElicitRequestSchema,
  type ElicitResult,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallsInFlight } from './calls-in-flight.js';
import type { McpRoot } from './mcp-root.js';
import { toSamplingRequest } from './to-sampling-request.js';

/** What answering a server's requests needs. */
export interface ServerRequestsOptions {
  /** The server's name, shown to the user with what it asks. */
  server: string;
  /** The connection's calls in progress: a request is answered through the ToolContext of one. */
  calls: CallsInFlight;
  /** The roots the client offers, read at each `roots/list`; without it, no roots capability is declared. */
  roots?: (() => readonly McpRoot[]) | undefined;
}

/**
 * The JSON-RPC error code of a request the user refused (the MCP specification's examples use -1 for a
 * sampling request the user rejected).
 */
const USER_REJECTED = -1;

/**
 * Core's codes for a sampling request refused on the user's behalf: declined by the user or the approval
 * policy, or refused because the run (a durable one) cannot ask the user. The server is told the same for
 * each, a refusal it can act on, not an internal fault.
 */
const REFUSED_SAMPLING_CODES: ReadonlySet<unknown> = new Set(['sampling_declined', 'sampling_approval_unsupported']);

/**
 * Declares the client's capabilities for server-initiated requests and answers them: `elicitation/create`
 * and `sampling/createMessage` through the ToolContext of the call in progress (`elicit`, `sample`), and
 * `roots/list` from `roots`. Called before the handshake.
 *
 * Capabilities belong to the connection, while `elicit` and `sample` belong to each call: a call made
 * outside an agent has neither. Elicitation and sampling are declared all the same (a server that does
 * not see them may hide the tools that need them, for every caller), and a request that comes when no
 * call can serve it is answered as the specification allows: an elicitation is declined, a sampling
 * request refused with an error that says why.
 */
export function serveServerRequests(client: Client, options: ServerRequestsOptions): void {
  const { server, calls, roots } = options;
  client.registerCapabilities({
    elicitation: { form: {}, url: {} },
    sampling: {},
    ...(roots ? { roots: { listChanged: true } } : {}),
  });

  client.setRequestHandler(ElicitRequestSchema, async ({ params }, extra): Promise<ElicitResult> => {
    const context = calls.offering('elicit');
    if (!context?.elicit) return { action: 'decline' };
    const request: ElicitationRequest =
      params.mode === 'url'
        ? { mode: 'url', server, message: params.message, url: params.url, signal: extra.signal }
        : {
            mode: 'form',
            server,
            message: params.message,
            schema: params.requestedSchema as JsonSchema,
            signal: extra.signal,
          };
    return toElicitResult(await context.elicit(request), params.mode === 'url');
  });

  client.setRequestHandler(CreateMessageRequestSchema, async ({ params }, extra): Promise<CreateMessageResult> => {
    const context = calls.offering('sample');
    if (!context?.sample) {
      throw new McpError(
        USER_REJECTED,
        calls.size === 0
          ? 'Sampling is answered only during a tool call of this server, and none is in progress.'
          : 'Sampling is not available: the tool call in progress does not run inside an agent.',
      );
    }
    try {
      const result = await context.sample(toSamplingRequest(server, params, extra.signal));
      return {
        role: 'assistant',
        content: { type: 'text', text: result.text },
        model: result.model,
        stopReason: result.stopReason,
      };
    } catch (error) {
      const code = (error as { code?: unknown } | undefined)?.code;
      throw new McpError(
        REFUSED_SAMPLING_CODES.has(code) ? USER_REJECTED : ErrorCode.InternalError,
        describeThrown(error),
      );
    }
  });

  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots().map((root) => ({ uri: root.uri, ...(root.name === undefined ? {} : { name: root.name }) })),
    }));
  }
}

function toElicitResult(result: ElicitationResult, urlMode: boolean): ElicitResult {
  if (result.action !== 'accept') return { action: result.action };
  // A URL-mode answer carries no content: the user only says whether they agreed to open the page.
  if (urlMode) return { action: 'accept' };
  return { action: 'accept', content: { ...(result.content as ElicitResult['content']) } };
}
