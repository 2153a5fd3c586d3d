import type { PermissionOption, RequestPermissionOutcome, RequestPermissionRequest } from '@agentclientprotocol/sdk';
import type { AgentEventMap, ApprovalAnswer, ApprovalChoice } from '@agentloop/core';
import type { ToolCallView } from '../updates/tool-call-view.js';

/** The permission options for the agent's approval choices: allow once, allow always, reject. */
export function permissionOptions(event: AgentEventMap['approval-requested']): PermissionOption[] {
  const options: Record<ApprovalChoice, PermissionOption> = {
    'allow-once': { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' },
    'allow-session': {
      optionId: 'allow-session',
      // A command is allowed again only as written (and with more arguments after it), never every command.
      name:
        event.kind === 'sampling'
          ? `Always allow ${event.name} to use the model in this session`
          : event.command === undefined
            ? `Always allow ${event.name} in this session`
            : `Always allow \`${event.command}\` in this session`,
      kind: 'allow_always',
    },
    deny: { optionId: 'deny', name: 'Reject', kind: 'reject_once' },
  };
  return event.choices.map((choice) => options[choice]);
}

/** The `session/request_permission` params for an approval request, the call shown as it will run. */
export function permissionRequest(
  sessionId: string,
  event: AgentEventMap['approval-requested'],
  view: ToolCallView,
): RequestPermissionRequest {
  return {
    sessionId,
    toolCall: {
      toolCallId: event.toolCallId,
      title: view.title,
      kind: view.kind,
      status: 'pending',
      locations: view.locations,
      content: [
        { type: 'content', content: { type: 'text', text: `Needs approval: ${event.reason}.` } },
        ...view.content,
      ],
      rawInput: event.arguments,
    },
    options: permissionOptions(event),
  };
}

/**
 * The agent's answer for the option the user selected; undefined when the editor cancelled the request
 * (it does so when the prompt turn is cancelled, which has refused the call already).
 */
export function approvalAnswer(
  outcome: RequestPermissionOutcome,
  event: Pick<AgentEventMap['approval-requested'], 'command'>,
): ApprovalAnswer | undefined {
  if (outcome.outcome === 'cancelled') return undefined;
  switch (outcome.optionId) {
    case 'allow-once':
      return { decision: 'allow-once' };
    case 'allow-session':
      return event.command === undefined
        ? { decision: 'allow-session' }
        : { decision: 'allow-session', commandPrefix: event.command };
    default:
      return { decision: 'deny' };
  }
}
