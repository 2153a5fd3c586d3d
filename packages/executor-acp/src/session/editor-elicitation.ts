import type {
  ClientCapabilities,
  CreateElicitationRequest,
  CreateElicitationResponse,
  ElicitationSchema,
  RequestPermissionOutcome,
  RequestPermissionRequest,
} from '@agentclientprotocol/sdk';
import type { AgentEventMap, ElicitationResult, ElicitationValue } from '@agentloop/core';

type ElicitationRequested = AgentEventMap['elicitation-requested'];

/** The elicitation modes the editor said in `initialize` it can show (`clientCapabilities.elicitation`). */
export interface EditorElicitation {
  form: boolean;
  url: boolean;
}

/** The modes of `elicitation/create` the editor takes; none when it did not advertise elicitation. */
export function editorElicitation(capabilities: ClientCapabilities): EditorElicitation {
  const elicitation = capabilities.elicitation;
  if (!elicitation) return { form: false, url: false };
  return { form: elicitation.form != null, url: elicitation.url != null };
}

/** The `elicitation/create` params for a tool's request, tied to the session and to the tool call. */
export function elicitationCreateRequest(sessionId: string, event: ElicitationRequested): CreateElicitationRequest {
  const scope = { sessionId, toolCallId: event.toolCallId, message: event.message };
  return event.mode === 'url'
    ? { ...scope, mode: 'url', url: event.url ?? '', elicitationId: event.requestId }
    : {
        ...scope,
        mode: 'form',
        requestedSchema: (event.schema ?? { type: 'object', properties: {} }) as ElicitationSchema,
      };
}

/** The agent's answer for the editor's `elicitation/create` response; an action it does not know is a decline. */
export function elicitationAnswer(response: CreateElicitationResponse): ElicitationResult {
  if (response.action === 'cancel') return { action: 'cancel' };
  if (response.action !== 'accept') return { action: 'decline' };
  const content = (response as { content?: Record<string, ElicitationValue> | null }).content ?? {};
  return { action: 'accept', content };
}

/**
 * For an editor without `elicitation/create`, the request as a `session/request_permission` with accept
 * and decline options: possible for a page to open (URL mode) and for a form without fields (a plain
 * confirmation). A form with fields cannot be filled in through a permission request: undefined, and the
 * request is declined.
 */
export function elicitationPermissionRequest(
  sessionId: string,
  event: ElicitationRequested,
): RequestPermissionRequest | undefined {
  const fields = Object.keys((event.schema?.properties ?? {}) as Record<string, unknown>);
  if (event.mode === 'form' && fields.length > 0) return undefined;
  const who = event.server ? `MCP server ${event.server}` : event.name;
  const text = event.mode === 'url' ? `${event.message}\n\nOpen: ${event.url ?? ''}` : event.message;
  return {
    sessionId,
    toolCall: {
      toolCallId: event.toolCallId,
      title: event.mode === 'url' ? `${who} asks you to open a page` : `${who} asks for your confirmation`,
      status: 'pending',
      content: [{ type: 'content', content: { type: 'text', text } }],
    },
    options: [
      { optionId: 'accept', name: event.mode === 'url' ? 'Open the page' : 'Accept', kind: 'allow_once' },
      { optionId: 'decline', name: 'Decline', kind: 'reject_once' },
    ],
  };
}

/** The agent's answer for the option selected; a dismissed request is a cancel. */
export function elicitationPermissionAnswer(outcome: RequestPermissionOutcome): ElicitationResult {
  if (outcome.outcome === 'cancelled') return { action: 'cancel' };
  return outcome.optionId === 'accept' ? { action: 'accept', content: {} } : { action: 'decline' };
}
