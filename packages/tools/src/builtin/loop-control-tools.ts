import { defineTool } from '../define-tool.js';
import type { Tool } from '../tool.js';
import { optionalTextList, payloadSchema, requiredText } from './payload-schema.js';

/** The names of the three loop-control tools, in the order they are listed to the model. */
export const LOOP_CONTROL_TOOL_NAMES = ['task_completion', 'ask_question', 'converse'] as const;

/** The name of a loop-control tool. */
export type LoopControlToolName = (typeof LOOP_CONTROL_TOOL_NAMES)[number];

/** True when the name is one of the three loop-control tools. */
export function isLoopControlToolName(name: string): name is LoopControlToolName {
  return (LOOP_CONTROL_TOOL_NAMES as readonly string[]).includes(name);
}

/**
 * The payload of `task_completion`. `Result` is text, or for a run with an `output` schema the type that
 * schema describes.
 */
export interface TaskCompletionPayload<Result = string> {
  /** The task's result, for the user: text, or a value of the run's `output` schema. */
  result: Result;
  /** Files or other artifacts the task produced. */
  artifacts?: string[];
}

/** The payload of `ask_question`. */
export interface AskQuestionPayload {
  /** The question for the user. */
  question: string;
  /** Up to four answers the user can pick from. */
  suggestions?: string[];
}

/** The payload of `converse`. */
export interface ConversePayload {
  /** The message for the user. */
  message: string;
}

/**
 * The payload of each loop-control tool, by name: the one map exits, events and results are typed from.
 * `Result` is the type of `task_completion`'s result.
 */
export interface LoopControlPayloadMap<Result = string> {
  task_completion: TaskCompletionPayload<Result>;
  ask_question: AskQuestionPayload;
  converse: ConversePayload;
}

/** A loop-control call that ends a run: the tool's name and its validated payload. */
export type LoopControlExit<Result = string> = {
  [Name in LoopControlToolName]: { exit: Name; payload: LoopControlPayloadMap<Result>[Name] };
}[LoopControlToolName];

const taskCompletionParameters = payloadSchema<TaskCompletionPayload>({
  result: requiredText('The result, written for the user.'),
  artifacts: optionalTextList('Files or other artifacts you produced.'),
});

const askQuestionParameters = payloadSchema<AskQuestionPayload>({
  question: requiredText('One clear question for the user.'),
  suggestions: optionalTextList('Answers the user can pick from.', { maxItems: 4 }),
});

const converseParameters = payloadSchema<ConversePayload>({
  message: requiredText('The message for the user.'),
});

// The loop ends on these calls before `execute` matters; `execute` returns the text the model sees as
// the call's result in history, since every call needs exactly one result.
export const taskCompletionTool: Tool<TaskCompletionPayload, string> = defineTool({
  name: 'task_completion',
  description: 'Call when the task is done, with its result.',
  parameters: taskCompletionParameters,
  execute: () => 'Task completion delivered to the user.',
});

export const askQuestionTool: Tool<AskQuestionPayload, string> = defineTool({
  name: 'ask_question',
  description:
    'Call when you cannot go on without information only the user has; the answer comes in the next message.',
  parameters: askQuestionParameters,
  execute: () => 'Question delivered to the user; their answer follows.',
});

export const converseTool: Tool<ConversePayload, string> = defineTool({
  name: 'converse',
  description: 'Call to reply to the user when there is no task to carry out (a greeting, small talk).',
  parameters: converseParameters,
  execute: () => 'Message delivered to the user.',
});

/** The three loop-control tools, in listing order. */
export const loopControlTools: readonly Tool[] = [taskCompletionTool, askQuestionTool, converseTool];

/**
 * The exit a loop-control call makes, typed by tool, or undefined when its arguments are not a valid
 * payload. The arguments were validated when the call ran; parsing them again here (once per run) is
 * what types the payload without a cast.
 */
export function loopControlExit(name: LoopControlToolName, args: unknown): LoopControlExit | undefined {
  switch (name) {
    case 'task_completion': {
      const parsed = taskCompletionParameters.check(args);
      return parsed.issues ? undefined : { exit: name, payload: parsed.value };
    }
    case 'ask_question': {
      const parsed = askQuestionParameters.check(args);
      return parsed.issues ? undefined : { exit: name, payload: parsed.value };
    }
    case 'converse': {
      const parsed = converseParameters.check(args);
      return parsed.issues ? undefined : { exit: name, payload: parsed.value };
    }
  }
}
