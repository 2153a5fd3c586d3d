import type { SessionInfo } from '@agentloop/core';
import type { TerminalOutput } from '../render/index.js';
import type { TerminalInput } from '../session/line-reader.js';
import type { SessionPicker } from './choose-session.js';
import { sessionChoiceLabel } from './session-list-lines.js';

/**
 * The sessions as a list to choose from with the arrow keys (as the agent's questions are asked), each
 * with its title, age and size, and its id as the hint. Esc or Ctrl-C backs out.
 */
export function clackSessionPicker(input: TerminalInput, output: TerminalOutput, cwd: string): SessionPicker {
  return async (sessions: readonly SessionInfo[]) => {
    const { isCancel, select } = await import('@clack/prompts');
    const choice = await select({
      input: input as NodeJS.ReadableStream as never,
      output: output as never,
      message: 'Which session do you resume?',
      options: sessions.map((session) => ({ value: session.id, ...sessionChoiceLabel(session, cwd) })),
    });
    return isCancel(choice) ? undefined : choice;
  };
}
