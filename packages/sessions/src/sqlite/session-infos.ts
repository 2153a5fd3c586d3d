import type { SessionInfo } from '@agentloop/memory';
import { recordSchemas } from '../records/load-record-schemas.js';
import { infoOf } from './session-row.js';

/**
 * The infos a list shows, from rows of the sessions table (SQLite's or PostgreSQL's), in their order. A
 * damaged session is no reason to fail a list: it is left out, and `load` says what is wrong with it.
 * Reads records: the caller has awaited loadRecordSchemas(). `where` names the database in errors.
 */
export function sessionInfos(rows: readonly unknown[], where: string): SessionInfo[] {
  return rows.flatMap((row) => {
    try {
      return [infoOf(recordSchemas().readSessionRow(row, where))];
    } catch {
      return [];
    }
  });
}
