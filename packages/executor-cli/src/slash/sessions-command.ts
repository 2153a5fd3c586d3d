import type { SessionStore } from '@agentloop/core';
import { outputWidth } from '../render/index.js';
import { formatSessionList } from '../session-store/session-list-lines.js';
import type { SlashCommand } from './slash-command.js';

/** What `/sessions` reads: the session store, and which session is this one. */
export interface SessionsCommandSource {
  store: Promise<SessionStore>;
  sessionId: () => string | undefined;
  cwd: string;
}

/**
 * `/sessions`: the saved sessions of this directory (`/sessions all`: of every directory), the most recent
 * first, this one marked. Made for a session that saves, with its store.
 */
export function sessionsCommand(source: SessionsCommandSource): SlashCommand {
  return {
    name: 'sessions',
    usage: '/sessions [all]',
    summary: 'list the saved sessions of this directory (all: of every directory)',
    async run(args, context) {
      const all = args.trim() === 'all';
      const store = await source.store;
      const sessions = await store.list(all ? {} : { workspace: source.cwd });
      const { output, style } = context;
      if (sessions.length === 0) {
        output.write(style.dim('No saved sessions yet.\n'));
        return;
      }
      const current = source.sessionId();
      output.write(
        formatSessionList(sessions, {
          style,
          showWorkspace: all,
          width: outputWidth(output),
          ...(current ? { current } : {}),
        }),
      );
      output.write(style.dim('agentloop --resume <id> resumes one in a new session of the command.\n'));
    },
  };
}
