import type { Agent, AgentEventMap } from '@agentloop/core';
import { assertSessionId, MEMORY_SCHEMA_VERSION } from '@agentloop/memory';
import { AgentloopError } from '@agentloop/spec';
import type { ObjectContext, RunOptions } from '@restatedev/restate-sdk';
import { TerminalError } from '@restatedev/restate-sdk';
import type { DurableAgentOptions } from '../durable-agent-options.js';
import { type DurableRunResult, durableRunResult } from '../durable-result.js';
import { EventDelivery } from '../events/event-delivery.js';
import { RestateJournal } from '../journal/restate-journal.js';
import { type DurableConversation, objectConversation, storeConversation } from '../state/conversation.js';
import {
  type Grants,
  type PendingApproval,
  type PendingApprovals,
  type PendingDurableQuestion,
  type RunningRecord,
  STATE,
} from '../state/durable-state.js';
import type { SessionGrant } from '../state/session-grant.js';

/**
 * The `run` handler: one run of the agent on the session's conversation, journaled, returning the
 * agent's result for every exit. Rejects with a TerminalError (400) only for a request it cannot take.
 */
export async function durableRun(
  options: DurableAgentOptions,
  context: ObjectContext,
  task: unknown,
): Promise<DurableRunResult<unknown>> {
  const input = checkedTask(task);
  const sessionId = checkedSessionId(context.key);
  const runOptions: RunOptions<unknown> = {
    maxRetryAttempts: options.stepRetry?.maxAttempts ?? 3,
    initialRetryInterval: options.stepRetry?.initialIntervalMs ?? 1_000,
  };
  const conversation: DurableConversation = options.sessionStore
    ? storeConversation(context, options.sessionStore, runOptions)
    : objectConversation(context);
  const stored = await conversation.load();
  context.set<RunningRecord>(STATE.run, { invocationId: context.request().id });
  const grants: Grants = (await context.get<Grants>(STATE.grants)) ?? [];
  const approvals: PendingApprovals = {};

  const agent = await options.createAgent({ sessionId });
  checkedAgent(agent, options.name);
  if (stored.messages.length > 0) {
    agent.memory.restore({ schemaVersion: MEMORY_SCHEMA_VERSION, messages: stored.messages });
  }
  if (grants.length > 0) addGrants(agent, grants, options.name);
  const events = new EventDelivery(options.onEvent, { sessionId });
  const journal = new RestateJournal(context, {
    ...(options.stepRetry ? { retry: options.stepRetry } : {}),
    hooks: {
      beforeRecord: () => events.flush(),
      onCancelled: () => agent.cancel('cancelled'),
      onWait: (requestId, awakeableId) => {
        approvals[requestId] = { requestId, awakeableId };
      },
      onWaitEnd: (requestId) => {
        delete approvals[requestId];
        context.set(STATE.approvals, approvals);
      },
    },
  });
  const stopEvents = agent.onAny((event) => events.deliver(event));
  // The request's details, for `state`, once the agent has announced it.
  const onApproval = (event: AgentEventMap['approval-requested']) => {
    const pending = approvals[event.requestId];
    if (!pending) return;
    approvals[event.requestId] = pendingApproval(pending, event);
    context.set(STATE.approvals, approvals);
  };
  agent.on('approval-requested', onApproval);
  try {
    const result = await agent.run(input, { journal });
    await conversation.save(agent.memory.messages(), {
      usage: result.usage,
      exit: result.exit,
      model: agent.provider.capabilities.modelId,
      ...(stored.messages.length === 0 ? { title: input.slice(0, 80) } : {}),
      ...(result.exit === 'ask_question' ? { pendingQuestion: result.payload } : {}),
    });
    const granted = (agent as GrantingAgent).approvalGrants ?? [];
    if (granted.length > grants.length) context.set<Grants>(STATE.grants, [...granted]);
    if (result.exit === 'ask_question') {
      context.set<PendingDurableQuestion>(STATE.question, { requestId: context.request().id, ...result.payload });
    } else context.clear(STATE.question);
    await events.flush();
    return durableRunResult(result);
  } finally {
    stopEvents();
    agent.off('approval-requested', onApproval);
    context.clear(STATE.run);
    context.clear(STATE.approvals);
  }
}

/** What DefaultAgent has to carry `allow-session` grants from one run's agent to the next. */
interface GrantingAgent {
  readonly approvalGrants?: readonly SessionGrant[];
  addApprovalGrants?(grants: readonly SessionGrant[]): unknown;
}

/** Gives the run's agent the session's earlier grants; refuses an agent that cannot take them. */
function addGrants(agent: Agent, grants: Grants, name: string): void {
  const granting = agent as GrantingAgent;
  if (typeof granting.addApprovalGrants !== 'function') {
    throw new TerminalError(
      `durableAgent "${name}": the session has approval grants, but createAgent's agent cannot take them (addApprovalGrants). Return a DefaultAgent.`,
      { errorCode: 500 },
    );
  }
  try {
    granting.addApprovalGrants(grants);
  } catch (error) {
    // An agent made without an approval policy asks about nothing, so earlier grants change nothing for
    // it; a throw here would only make Restate retry the run forever.
    if (!(AgentloopError.isInstance(error) && error.code === 'invalid_usage')) throw error;
  }
}

function pendingApproval(pending: PendingApproval, event: AgentEventMap['approval-requested']): PendingApproval {
  return {
    ...pending,
    toolCallId: event.toolCallId,
    name: event.name,
    arguments: event.arguments,
    ...(event.command === undefined ? {} : { command: event.command }),
    reason: event.reason,
    choices: event.choices,
  };
}

/** The task: a JSON string, not empty. */
function checkedTask(task: unknown): string {
  if (typeof task !== 'string' || task.trim() === '') {
    throw new TerminalError(
      `run takes the task as a JSON string body (e.g. "Summarise the report"), not ${describe(task)}.`,
      { errorCode: 400 },
    );
  }
  return task;
}

/** The object's key, which is the session id: the SessionStore contract's rule for ids applies. */
function checkedSessionId(key: string): string {
  try {
    assertSessionId(key);
  } catch (error) {
    throw new TerminalError(`The object key is the session id: ${(error as Error).message}`, { errorCode: 400 });
  }
  return key;
}

/** The agent must leave the conversation to the durable agent. */
function checkedAgent(agent: Agent, name: string): void {
  if ((agent as { sessionUsage?: unknown }).sessionUsage !== undefined) {
    throw new TerminalError(
      `durableAgent "${name}": createAgent returned an agent with a session of its own (the \`session\` option). Leave it out: the durable agent keeps the conversation, in the object's state or in its \`sessionStore\`.`,
      { errorCode: 500 },
    );
  }
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return 'an empty body';
  if (typeof value === 'string') return 'an empty string';
  return `a JSON ${Array.isArray(value) ? 'array' : typeof value}`;
}
