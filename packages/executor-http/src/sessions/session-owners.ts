import { createHash } from 'node:crypto';
import type { SessionInfo, SessionStore } from '@agentloop/core';

/** The id prefix of the records that say who owns a session; they are no sessions of their own. */
export const OWNER_RECORD_PREFIX = 'agentloop-http-owner.';

/**
 * Who owns which session. A SessionStore has no field for an owner, so with several principals (an
 * `authenticate` option) each session's owner is kept in the same store as an empty record session whose
 * id is made from the session's id and whose title names the owner. `create` refuses a taken id, so two
 * principals racing for a new session id cannot both win, and a list of the store reads every owner at once.
 *
 * With one principal (a bearer token and no `authenticate`), every session in the store is that
 * principal's, and no record is written.
 */
export class SessionOwners {
  readonly #store: SessionStore;
  readonly #singlePrincipal: string | undefined;

  constructor(options: { store: SessionStore; singlePrincipal?: string }) {
    this.#store = options.store;
    this.#singlePrincipal = options.singlePrincipal;
  }

  /** The id of the principal that owns the session; undefined when nobody does (a new id). */
  async ownerOf(sessionId: string): Promise<string | undefined> {
    if (this.#singlePrincipal !== undefined) return this.#singlePrincipal;
    try {
      const record = await this.#store.load(recordId(sessionId));
      return parseRecord(record.info)?.principalId;
    } catch (error) {
      if (isCode(error, 'session_not_found')) return undefined;
      throw error;
    }
  }

  /**
   * Makes `principalId` the owner of a session nobody owns yet. Resolves with the owner afterwards: the
   * principal, or whoever claimed it first.
   */
  async claim(sessionId: string, principalId: string): Promise<string> {
    if (this.#singlePrincipal !== undefined) return this.#singlePrincipal;
    try {
      await this.#store.create({ id: recordId(sessionId), title: JSON.stringify({ sessionId, principalId }) });
      return principalId;
    } catch (error) {
      if (!isCode(error, 'session_exists')) throw error;
      return (await this.ownerOf(sessionId)) ?? principalId;
    }
  }

  /** The principal's sessions, the most recently updated first. */
  async list(principalId: string, options: { limit?: number } = {}): Promise<SessionInfo[]> {
    const all = await this.#store.list();
    const owned = new Set<string>();
    const sessions: SessionInfo[] = [];
    for (const info of all) {
      if (info.id.startsWith(OWNER_RECORD_PREFIX)) {
        const record = parseRecord(info);
        if (record?.principalId === principalId) owned.add(record.sessionId);
      } else sessions.push(info);
    }
    const mine =
      this.#singlePrincipal !== undefined
        ? this.#singlePrincipal === principalId
          ? sessions
          : []
        : sessions.filter((info) => owned.has(info.id));
    return options.limit === undefined ? mine : mine.slice(0, options.limit);
  }
}

function recordId(sessionId: string): string {
  return OWNER_RECORD_PREFIX + createHash('sha256').update(sessionId).digest('base64url');
}

function parseRecord(info: SessionInfo): { sessionId: string; principalId: string } | undefined {
  try {
    const value: unknown = JSON.parse(info.title ?? '');
    if (typeof value !== 'object' || value === null) return undefined;
    const { sessionId, principalId } = value as Record<string, unknown>;
    return typeof sessionId === 'string' && typeof principalId === 'string' ? { sessionId, principalId } : undefined;
  } catch {
    return undefined;
  }
}

function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
