import type { TerminalInput } from '../session/index.js';

/** The task argument that means "read the task from stdin": `cat log | agentloop run -`. */
export const STDIN_TASK = '-';

/**
 * The task of `agentloop run`: the argument, or stdin when it is piped in and there is no argument
 * (`echo "task" | agentloop run`) or the argument is `-` (`cat log | agentloop run -`). Beside any other
 * argument stdin is left alone: a script may leave it open, and reading it would wait forever. Undefined
 * when there is no task.
 */
export async function readTask(argument: string | undefined, stdin: TerminalInput): Promise<string | undefined> {
  const task = argument?.trim() || undefined;
  if (task !== undefined && task !== STDIN_TASK) return task;
  if (stdin.isTTY) return undefined;
  return (await readAll(stdin)).trim() || undefined;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
