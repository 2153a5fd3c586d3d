import type { SessionInfo } from '@agentloop/core';
import type { Style } from '../render/index.js';
import { cutText, formatCount, oneLine, stripControls } from '../render/index.js';
import { timeAgo } from './time-ago.js';

/** Options of `formatSessionList`. */
export interface SessionListOptions {
  style: Style;
  /** The session in use, marked with `●`. */
  current?: string;
  /** Show each session's directory (a list of every directory's sessions). */
  showWorkspace?: boolean;
  /** The widest line, in characters. */
  width?: number;
  now?: Date;
}

/**
 * Sessions as lines, the most recent first: id, when it was last updated, its size in messages and
 * tokens, its model and title (and directory). The title came from the user's first input, the model
 * from a provider: both are stripped of control sequences.
 */
export function formatSessionList(sessions: readonly SessionInfo[], options: SessionListOptions): string {
  const { style } = options;
  const width = options.width ?? 100;
  const idWidth = Math.max(...sessions.map((session) => session.id.length), 2);
  const lines = sessions.map((session) => {
    const marker = session.id === options.current ? style.green('● ') : '  ';
    const facts = [
      timeAgo(session.updatedAt, options.now).padEnd(12),
      `${formatCount(session.messageCount)} msgs`.padStart(10),
      `${formatCount(session.tokenCount)} tokens`.padStart(14),
    ].join('  ');
    const model = stripControls(session.model ?? '');
    const head = `${marker}${style.bold(session.id.padEnd(idWidth))}  ${style.dim(facts)}  ${style.cyan(model)}`;
    const used = 2 + idWidth + 2 + facts.length + 2 + model.length + 2;
    const title = cutText(oneLine(stripControls(session.title ?? '(no input yet)')), Math.max(20, width - used)).text;
    const where =
      options.showWorkspace && session.workspace ? `\n    ${style.dim(stripControls(session.workspace))}` : '';
    return `${head}  ${title}${where}`;
  });
  return `${lines.join('\n')}\n`;
}

/**
 * One session as a line for the `--resume` list: title, then when, size and directory (`here`, or the
 * other directory it was saved in), and its id as the hint. The directory is in the label, which every
 * line shows, not in the hint, which the list shows only for the line under the cursor: a session of
 * another directory resumes in this one, and the list must say which ones those are.
 */
export function sessionChoiceLabel(session: SessionInfo, cwd: string, now?: Date): { label: string; hint: string } {
  const title = cutText(oneLine(stripControls(session.title ?? '(no input yet)')), 60).text;
  const where =
    session.workspace === undefined || session.workspace === cwd ? 'here' : `in ${stripControls(session.workspace)}`;
  return {
    label: `${title}  (${timeAgo(session.updatedAt, now)}, ${formatCount(session.messageCount)} messages, ${where})`,
    hint: session.id,
  };
}
