import type { Message } from '@agentloop/spec';
import { z } from 'zod';
import { parseRecord } from '../records/record-problem.js';
import { messageSchema, pendingQuestionSchema, usageSchema } from '../records/saved-values.js';
import type { SessionRecord } from './session-row.js';

/** A text column that holds JSON of `schema`. */
function jsonText<T>(schema: z.ZodType<T>) {
  return z
    .string()
    .transform((text, context) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        context.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

const count = z.number().int().nonnegative();
const milliseconds = z
  .number()
  .int()
  .transform((time) => new Date(time));

/**
 * The sessions table's row. Rows are read after `migrate` brought the database to the current schema
 * version, so this is the current version's row: a migration that changes a column changes it here too,
 * and a database of an earlier version reaches it through its migrations (a frozen database of every
 * version is tested).
 */
const sessionRowSchema: z.ZodType<SessionRecord> = z
  .object({
    id: z.string(),
    title: z.string().nullable(),
    model: z.string().nullable(),
    workspace: z.string().nullable(),
    created_at: milliseconds,
    updated_at: milliseconds,
    turn_count: count,
    message_count: count,
    usage: jsonText(usageSchema),
    pending_question: jsonText(pendingQuestionSchema).nullable(),
    forked_from: z.string().nullable(),
    forked_at_message: count.nullable(),
  })
  .transform((row) => ({
    id: row.id,
    title: row.title,
    model: row.model,
    workspace: row.workspace,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    turnCount: row.turn_count,
    messageCount: row.message_count,
    usage: row.usage,
    pendingQuestion: row.pending_question,
    forkedFrom: row.forked_from,
    forkedAtMessage: row.forked_at_message,
  }));

// The session cannot be read as it is; the database's other sessions are not affected.
const ADVICE = 'It cannot be resumed: start a new session (the other sessions in the database are not affected).';

/** A sessions row checked against its schema; throws `invalid_session` naming the session, the file and the fault. */
export function readSessionRow(row: unknown, file: string): SessionRecord {
  const sessionId = typeof (row as { id?: unknown })?.id === 'string' ? (row as { id: string }).id : undefined;
  return parseRecord(sessionRowSchema, row, {
    sessionId,
    where: `its row in the sessions table of ${file}`,
    advice: ADVICE,
  });
}

/** A message row: the JSON of a message. */
const messageRowSchema = jsonText(messageSchema);

/** A message row's JSON checked against the message schema; throws `invalid_session` naming its position. */
export function readMessage(text: string, sessionId: string, position: number, file: string): Message {
  return parseRecord(messageRowSchema, text, {
    sessionId,
    where: `message ${position} (its row in the messages table of ${file})`,
    advice: ADVICE,
  });
}
