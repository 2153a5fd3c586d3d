import type { Tool, ToolAnnotations, ToolParameters } from '@agentloop/tools';
import { defineTool } from '@agentloop/tools';
import type { AgentResult } from '../loop/agent-result.js';
import type { SubagentChild, SubagentParent } from './subagent-parent.js';
import { markSubagentTool, subagentParent } from './subagent-parent.js';

/** What a sub-agent does with its `ask_question`. */
export type SubagentQuestionMode = 'ask-user' | 'fail';

/** Options of `agent.asTool()`. */
export interface AsToolOptions<Output extends ToolParameters | undefined = undefined> {
  /** The tool's name, as the parent's model calls it (letters, digits, `_` and `-`). */
  name: string;
  /** What the agent does and when to call it, for the parent's model. */
  description: string;
  /**
   * What the sub-agent's `ask_question` does. `ask-user` (the default): the question reaches the parent's
   * user as a `subagent-question` event at the parent, answered with `answerQuestion()`, and the sub-agent
   * goes on with the answer; when nothing at the parent listens to that event, the call fails as with
   * `fail`. `fail`: the call ends with an error result that carries the question, for the parent's model
   * to answer or to ask its user.
   */
  questions?: SubagentQuestionMode;
  /** A schema for the sub-agent's result (its `task_completion` takes it): the tool's value is that object. */
  output?: Output;
  /** How long one call may take, in milliseconds. Default: the parent's `toolTimeoutMs`. */
  timeoutMs?: number;
  /**
   * What calling the agent may do, for the caller's approval policy. Default: read-only when the agent has
   * an approval policy of its own (it asks about each of its calls itself); otherwise what its tools may
   * do (read-only when all of them are, destructive or open-world when any is).
   */
  annotations?: ToolAnnotations;
}

/** The agent a sub-agent tool runs: a fresh one per call, so that calls can run at once. */
export interface SubagentAgent extends SubagentChild {
  run(input: string, options: { signal: AbortSignal; output?: ToolParameters }): Promise<AgentResult<unknown>>;
  onAny(listener: (event: Parameters<SubagentParent['forward']>[0]) => void): () => void;
  on(name: 'approval-requested' | 'elicitation-requested', listener: () => void): unknown;
  on(name: 'subagent-question', listener: (event: SubagentQuestionEvent) => void): unknown;
}

type SubagentQuestionEvent = Parameters<SubagentParent['forwardQuestion']>[0];

// JSON Schema rather than zod: zod is a peer dependency of core, which an app without it must still load.
const TASK_PARAMETERS = {
  type: 'object',
  properties: {
    task: {
      type: 'string',
      minLength: 1,
      description: 'The whole task for the agent: it sees nothing of this conversation, only this text.',
    },
  },
  required: ['task'],
  additionalProperties: false,
} as const;

/**
 * A tool that runs an agent on a task: each call makes a fresh agent with `createAgent` and runs it on the
 * call's `task`. Its events reach the calling agent as `subagent-event`s, its figures are added to the
 * calling run's, the calling run's cancel and the call's timeout stop it (the tool's signal), and its
 * approval requests and questions go to the calling agent's executor. Its `task_completion` result is the
 * tool's value; any other ending makes the call fail with a result that says why, and the calling agent goes on.
 */
export function subagentTool<Output extends ToolParameters | undefined>(
  options: AsToolOptions<Output> & { createAgent: () => SubagentAgent },
): Tool<{ task: string }> {
  const { name, createAgent } = options;
  const questions = options.questions ?? 'ask-user';
  const tool = defineTool({
    name,
    description: options.description,
    parameters: TASK_PARAMETERS,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.annotations ? { annotations: options.annotations } : {}),
    execute: async (args, context) => {
      const task = (args as { task: string }).task;
      const parent = subagentParent();
      const child = createAgent();
      const stop = parent ? link(parent, child) : () => {};
      const runOptions = {
        signal: context.signal,
        ...(options.output === undefined ? {} : { output: options.output }),
      };
      try {
        let result = await child.run(task, runOptions);
        parent?.addMetrics(result.metrics);
        while (result.exit === 'ask_question') {
          const { question } = result.payload;
          if (questions === 'fail' || !parent?.answersQuestions) {
            throw new Error(
              `The ${name} agent needs an answer before it can go on: "${question}". Call it again with a task ` +
                'that answers this, or ask the user.',
            );
          }
          const answer = await parent.ask(result.payload, context.signal);
          result = await child.run(answer, runOptions);
          parent.addMetrics(result.metrics);
        }
        return toolValue(name, result);
      } finally {
        stop();
      }
    },
  });
  return markSubagentTool(tool);
}

/** Connects a child to its parent's call: its events, approval requests and questions go up. */
function link(parent: SubagentParent, child: SubagentAgent): () => void {
  const stopForwarding = child.onAny((event) => {
    // A grandchild's question is passed up as the parent's own request (below), not as an event to show.
    if (event.type !== 'subagent-question') parent.forward(event, child);
  });
  // The child's approval gate asks only when something listens; this listener is that something, and
  // only when the parent itself can answer, so that an unanswerable request still fails at once.
  if (parent.answersApprovals) child.on('approval-requested', () => {});
  // Likewise for a tool's elicitation: without a listener the child declines it at once.
  if (parent.answersElicitations) child.on('elicitation-requested', () => {});
  if (parent.answersQuestions) child.on('subagent-question', (event) => parent.forwardQuestion(event, child));
  return stopForwarding;
}

/** The tool's value for a run that ended; throws, for the model to see why, when it did not complete. */
function toolValue(name: string, result: AgentResult<unknown>): unknown {
  switch (result.exit) {
    case 'task_completion': {
      const { result: value, artifacts } = result.payload;
      if (typeof value !== 'string' || !artifacts || artifacts.length === 0) return value;
      return `${value}\n\nArtifacts: ${artifacts.join(', ')}`;
    }
    case 'converse':
      return result.payload.message;
    case 'max_iterations': {
      const summary = result.payload?.result;
      throw new Error(
        `The ${name} agent reached its limit of ${result.iterations} model calls without finishing the task.` +
          (summary ? ` Its account of what it did and what remains: ${summary}` : '') +
          ' Go on from there, or give it a smaller task.',
      );
    }
    case 'cancelled':
      throw result.error;
    case 'error':
      throw new Error(`The ${name} agent failed: ${result.error.message}`);
    case 'ask_question':
      throw new Error(`The ${name} agent ended with a question it could not ask.`);
  }
}
