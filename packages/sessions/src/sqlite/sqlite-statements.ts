import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from './load-sqlite.js';

/** The store's SQL, prepared once per database. */
export class SqliteStatements {
  readonly session: BetterSqlite3.Statement;
  readonly writerOf: BetterSqlite3.Statement;
  readonly setWriter: BetterSqlite3.Statement;
  readonly clearWriter: BetterSqlite3.Statement;
  readonly renewWriter: BetterSqlite3.Statement;
  readonly insertSession: BetterSqlite3.Statement;
  readonly deleteSession: BetterSqlite3.Statement;
  readonly updateAfterCommit: BetterSqlite3.Statement;
  readonly messages: BetterSqlite3.Statement;
  readonly insertMessage: BetterSqlite3.Statement;
  readonly deleteMessages: BetterSqlite3.Statement;
  readonly insertTurn: BetterSqlite3.Statement;
  readonly list: BetterSqlite3.Statement;
  readonly listInWorkspace: BetterSqlite3.Statement;

  constructor(db: SqliteDatabase) {
    this.session = db.prepare('SELECT * FROM sessions WHERE id = ?');
    this.writerOf = db.prepare('SELECT writer FROM sessions WHERE id = ?');
    this.setWriter = db.prepare('UPDATE sessions SET writer = ? WHERE id = ?');
    this.clearWriter = db.prepare(
      "UPDATE sessions SET writer = NULL WHERE id = ? AND json_extract(writer, '$.token') = ?",
    );
    this.renewWriter = db.prepare(
      "UPDATE sessions SET writer = ? WHERE id = ? AND json_extract(writer, '$.token') = ?",
    );
    this.insertSession = db.prepare(
      `INSERT INTO sessions (id, title, model, workspace, created_at, updated_at, turn_count, message_count, usage,
         pending_question, forked_from, forked_at_message, writer)
       VALUES (@id, @title, @model, @workspace, @created_at, @updated_at, @turn_count, @message_count, @usage,
         @pending_question, @forked_from, @forked_at_message, @writer)`,
    );
    this.deleteSession = db.prepare('DELETE FROM sessions WHERE id = ?');
    this.updateAfterCommit = db.prepare(
      `UPDATE sessions SET title = ?, model = ?, updated_at = ?, turn_count = ?, message_count = ?, usage = ?,
         pending_question = ? WHERE id = ?`,
    );
    this.messages = db.prepare('SELECT message FROM messages WHERE session_id = ? ORDER BY position');
    this.insertMessage = db.prepare('INSERT INTO messages (session_id, position, turn, message) VALUES (?, ?, ?, ?)');
    this.deleteMessages = db.prepare('DELETE FROM messages WHERE session_id = ?');
    this.insertTurn = db.prepare(
      'INSERT INTO turns (session_id, turn, committed_at, exit, model, usage) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.list = db.prepare('SELECT * FROM sessions ORDER BY updated_at DESC, id LIMIT ?');
    this.listInWorkspace = db.prepare(
      'SELECT * FROM sessions WHERE workspace = ? ORDER BY updated_at DESC, id LIMIT ?',
    );
  }
}
