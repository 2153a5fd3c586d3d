import type { AgentExit } from '@agentloop/core';

/**
 * The exit status of `agentloop run` (and of the `agentloop` command when it fails to start):
 * 0 the task was completed (or the agent answered conversationally), 1 the run failed, 2 bad usage or
 * configuration (no provider, an invalid configuration file, a bad option), 3 the agent asked a question
 * that a non-interactive run cannot answer, 4 the iteration limit was reached, 130 cancelled (Ctrl-C),
 * 143 ended by SIGTERM (after the run was cancelled and the plugins disposed).
 */
export const EXIT_CODES = {
  success: 0,
  error: 1,
  usage: 2,
  question: 3,
  maxIterations: 4,
  cancelled: 130,
  terminated: 143,
} as const;

/** The exit status for how a run ended. */
export function exitCodeFor(exit: AgentExit): number {
  switch (exit) {
    case 'task_completion':
    case 'converse':
      return EXIT_CODES.success;
    case 'ask_question':
      return EXIT_CODES.question;
    case 'max_iterations':
      return EXIT_CODES.maxIterations;
    case 'cancelled':
      return EXIT_CODES.cancelled;
    case 'error':
      return EXIT_CODES.error;
  }
}
