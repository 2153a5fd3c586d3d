import { fstatSync } from 'node:fs';
import type { TerminalInput } from '../session/index.js';

/**
 * The task of `agentloop run`: the argument, stdin, or both (`cat log | agentloop run "explain this"`:
 * the argument, a blank line, then stdin). Stdin is read when it is piped in and there is no argument,
 * or when it is a pipe or a file beside an argument — not a socket or a terminal, which may never end.
 * Undefined when there is no task.
 */
export async function readTask(
  argument: string | undefined,
  stdin: TerminalInput & { fd?: number },
): Promise<string | undefined> {
  const task = argument?.trim() || undefined;
  const readStdin = !stdin.isTTY && (task === undefined || isPipeOrFile(stdin.fd ?? 0));
  const piped = readStdin ? (await readAll(stdin)).trim() : '';
  const parts = [task, piped || undefined].filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}

function isPipeOrFile(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    return stats.isFIFO() || stats.isFile();
  } catch {
    return false;
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
