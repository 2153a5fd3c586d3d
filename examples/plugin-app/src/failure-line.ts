// How this example reports a run that did not end with an answer: one line on stderr that says what failed
// and what to do about it, and exit status 1. The same file is in each example, so that any of them can be
// copied on its own.
import type { AgentResult } from '@agentloop/core';
import { AgentloopError } from '@agentloop/core';

/** The variables an example reads, as far as a failure line names them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The process's exit status for a run: 0 when the agent answered (a result, a message or a question),
 * else 1, with one line on stderr saying what failed and what to do.
 */
export function exitStatus(
  result: AgentResult,
  printError: (line: string) => void,
  environment: Environment = process.env,
): number {
  if (result.exit === 'task_completion' || result.exit === 'converse' || result.exit === 'ask_question') return 0;
  printError(`✗ ${result.exit === 'error' ? failureLine(result.error, environment) : endedEarly(result.exit)}`);
  return 1;
}

/** What failed (the error's first line) and, where there is one, what to do about it. */
export function failureLine(error: unknown, environment: Environment = process.env): string {
  const what = firstLine(error instanceof Error ? error.message : String(error));
  const todo = AgentloopError.isInstance(error) ? nextStep(error, environment) : undefined;
  if (todo === undefined) return what;
  return `${/[.!?)]$/.test(what) ? what : `${what}.`} ${todo}`;
}

/** The first line of a message: a failure is one line, never a stack trace. */
export function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

function endedEarly(exit: AgentResult['exit']): string {
  if (exit === 'max_iterations') {
    return 'The run ended at its iteration limit before the model finished: give a smaller task, or raise maxIterations in src/main.ts.';
  }
  return `The run ended with ${exit}.`;
}

/**
 * What to do about a model call's failure, by its code, naming the variable to change. Undefined where the
 * provider's own message already says it (a server that is not reachable, a key that was not sent) or
 * there is nothing to do (a cancel).
 */
function nextStep(error: AgentloopError, environment: Environment): string | undefined {
  // A ProviderError names its provider; the examples read Anthropic's variables or OpenAI's.
  const prefix = 'provider' in error && error.provider === 'anthropic' ? 'ANTHROPIC' : 'OPENAI';
  const key = `${prefix}_API_KEY`;
  const model = `${prefix}_MODEL`;
  switch (error.code) {
    case 'authentication':
      return environment[key]
        ? `Check ${key}: the server did not accept it (or unset it to run on the scripted model).`
        : undefined;
    case 'permission':
      return `The API key may lack access to this model: pick another with ${model}.`;
    case 'not_found':
      return `Check the model name in ${model}, and the server in ${prefix}_BASE_URL.`;
    case 'invalid_request':
      return `Check that ${model} names a model this server serves, with tool calling (README.md lists the variables).`;
    case 'tools_unsupported':
      return `Pick a model with tool calling in ${model}.`;
    case 'context_length':
      return 'Give a shorter task, or a model with a larger context window.';
    case 'rate_limit':
    case 'overloaded':
      return 'Wait a minute and run it again.';
    case 'server_error':
    case 'stream_broken':
    case 'timeout':
      return "Run it again; if it keeps failing, check the server's status.";
    default:
      return undefined;
  }
}
