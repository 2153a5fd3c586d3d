import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import type { Tool } from '../tool.js';

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

const requiredText = (description: string) => z.string().trim().min(1, 'must not be empty').describe(description);

const taskCompletionParameters = z.object({
  result: requiredText('The final result of the task, written for the user.'),
  artifacts: z.array(z.string()).optional().describe('Paths or names of files and other artifacts produced.'),
});

const askQuestionParameters = z.object({
  question: requiredText('The question for the user.'),
  suggestions: z.array(z.string()).max(4).optional().describe('Up to four suggested answers.'),
});

const converseParameters = z.object({
  message: requiredText('The message for the user.'),
});

// The loop ends on these calls before `execute` matters; `execute` returns the text the model sees as
// the call's result in history, since every call needs exactly one result.
export const taskCompletionTool: Tool<TaskCompletionPayload, string> = defineTool({
  name: 'task_completion',
  description:
    'Call this when the task is fully done. Give the final result for the user, and list any files or other artifacts you produced. This ends your turn.',
  parameters: taskCompletionParameters,
  execute: () => 'Task completion delivered to the user.',
});

export const askQuestionTool: Tool<AskQuestionPayload, string> = defineTool({
  name: 'ask_question',
  description:
    'Call this when you cannot go on without information only the user has. Ask one clear question, optionally with up to four suggested answers. This ends your turn; the user answers in the next message.',
  parameters: askQuestionParameters,
  execute: () => 'Question delivered to the user; their answer follows.',
});

export const converseTool: Tool<ConversePayload, string> = defineTool({
  name: 'converse',
  description:
    'Call this to reply to the user conversationally when there is no task to carry out (a greeting, a question about you, small talk). This ends your turn.',
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
      const parsed = taskCompletionParameters.safeParse(args);
      return parsed.success ? { exit: name, payload: parsed.data } : undefined;
    }
    case 'ask_question': {
      const parsed = askQuestionParameters.safeParse(args);
      return parsed.success ? { exit: name, payload: parsed.data } : undefined;
    }
    case 'converse': {
      const parsed = converseParameters.safeParse(args);
      return parsed.success ? { exit: name, payload: parsed.data } : undefined;
    }
  }
}
