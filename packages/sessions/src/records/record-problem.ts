import { SessionStoreError } from '@agentloop/memory';
import type { z } from 'zod';

/** What is wrong with a value that failed its schema, in one line: the first problem and where it is. */
export function describeProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not have the shape of a session record';
  const where = issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
  return `${where}${issue.message}`;
}

/**
 * The `invalid_session` error for a saved record that cannot be read: which session, where the record is
 * (`line 4 of <file>`, `message 3 in <file>`), what is wrong, and what to do.
 */
export function invalidRecord(options: {
  sessionId: string | undefined;
  where: string;
  problem: string;
  advice: string;
}): SessionStoreError {
  const session = options.sessionId === undefined ? '' : `Session ${options.sessionId}: `;
  return new SessionStoreError(`${session}${options.where} is damaged (${options.problem}). ${options.advice}`, {
    code: 'invalid_session',
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
  });
}

/** Parses `value` with `schema`, or throws `invalidRecord` with its first problem. */
export function parseRecord<T>(
  schema: z.ZodType<T>,
  value: unknown,
  place: { sessionId: string | undefined; where: string; advice: string },
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidRecord({ ...place, problem: describeProblem(result.error) });
}
