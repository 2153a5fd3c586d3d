import type { TerminalHandle } from '@agentclientprotocol/sdk';
import type { CommandRunner, CommandRunOutcome } from '@agentloop/workspace-tools';
import type { SessionOutbox } from '../session/session-outbox.js';
import type { SessionUpdateMapper } from '../updates/session-update-mapper.js';
import { withdrawnOn } from './withdrawn-on.js';

/**
 * The editor's terminals as run_command's runner (`terminal/create`, `wait_for_exit`, `kill`, `output`,
 * `release`): the user watches the command run in the tool call, which embeds the terminal. run_command has
 * checked the working directory and built the sandbox, so what runs here is the shell or bubblewrap around
 * it. The timeout and a cancel kill the command; the terminal is released once its output is read (the
 * editor keeps showing it). The editor keeps the end of long output (`outputByteLimit`).
 */
export function createClientCommandRunner(outbox: SessionOutbox, mapper: SessionUpdateMapper): CommandRunner {
  return async (request) => {
    const started = performance.now();
    await outbox.flush();
    request.signal.throwIfAborted();
    const terminal = await outbox.client.createTerminal(
      {
        sessionId: outbox.sessionId,
        command: request.file,
        args: [...request.args],
        env: Object.entries(request.env).map(([name, value]) => ({ name, value })),
        cwd: request.cwd,
        outputByteLimit: request.maxOutputBytes,
      },
      withdrawnOn(request.signal),
    );
    try {
      outbox.send(mapper.terminal(request.toolCallId, terminal.id));
      const ending = await exitOf(terminal, request.timeoutMs, request.signal);
      if (ending !== 'exited') await terminal.kill().catch(() => undefined);
      const { output, exitStatus } = await terminal.currentOutput();
      const outcome: CommandRunOutcome = {
        ending,
        exitCode: exitStatus?.exitCode ?? null,
        exitSignal: exitStatus?.signal ?? null,
        output,
        durationMs: Math.round(performance.now() - started),
      };
      return outcome;
    } finally {
      // The terminal must be in the tool call before it is released.
      await outbox.flush();
      await terminal.release().catch(() => undefined);
    }
  };
}

/** How the wait ended: the command exited, or the timeout or the signal came first. */
function exitOf(
  terminal: TerminalHandle,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<CommandRunOutcome['ending']> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle('timeout'), timeoutMs);
    const onAbort = () => settle('cancelled');
    const settle = (ending: CommandRunOutcome['ending']) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(ending);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    terminal.waitForExit().then(
      () => settle('exited'),
      (error: unknown) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
