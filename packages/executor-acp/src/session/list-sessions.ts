import { isAbsolute } from 'node:path';
import type { ListSessionsRequest, ListSessionsResponse } from '@agentclientprotocol/sdk';
import { RequestError } from '@agentclientprotocol/sdk';
import type { SessionInfo, SessionStore } from '@agentloop/core';

/** How many sessions one `session/list` answer holds; the editor asks again with `nextCursor` for more. */
export const SESSION_LIST_PAGE_SIZE = 50;

/**
 * `session/list`: the store's sessions, newest first, those of `cwd` alone when the editor names one.
 *
 * A session saved without a directory is left out: the protocol's `SessionInfo` needs one, and the editor
 * could not say where to load it. The cursor is the count of sessions already sent, as text; the list is
 * read again for each page, so a session saved between two pages can shift the next one by one entry.
 */
export async function listSessions(store: SessionStore, request: ListSessionsRequest): Promise<ListSessionsResponse> {
  const cwd = request.cwd ?? undefined;
  if (cwd !== undefined && !isAbsolute(cwd)) {
    throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path to filter by, not ${JSON.stringify(cwd)}`);
  }
  const start = pageStart(request.cursor ?? undefined);
  const sessions = (await store.list())
    .filter((session): session is SessionInfo & { workspace: string } => session.workspace !== undefined)
    .filter((session) => cwd === undefined || session.workspace === cwd)
    .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  const page = sessions.slice(start, start + SESSION_LIST_PAGE_SIZE);
  const next = start + page.length;
  return {
    sessions: page.map((session) => ({
      sessionId: session.id,
      cwd: session.workspace,
      title: session.title ?? null,
      updatedAt: session.updatedAt.toISOString(),
    })),
    ...(next < sessions.length ? { nextCursor: String(next) } : {}),
  };
}

function pageStart(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d+$/.test(cursor)) {
    throw RequestError.invalidParams(
      { cursor },
      'cursor must be a nextCursor this agent sent; start again without one',
    );
  }
  return Number(cursor);
}
