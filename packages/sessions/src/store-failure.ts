import path from 'node:path';
import { SessionStoreError } from '@agentloop/memory';
import { describeThrown } from '@agentloop/spec';

/** Where a store failed: the file it read or wrote, and the session, when there is one. */
export interface FailurePlace {
  file: string;
  sessionId?: string;
}

/**
 * What the file system or SQLite threw, as a SessionStoreError of one line that names the file and says
 * what to do: `store_damaged` for a file that is not (or no longer) a database, `store_failed` for a full
 * disk, a folder that cannot be written, an I/O error. A SessionStoreError is kept as it is.
 */
export function storeFailure(error: unknown, place: FailurePlace): SessionStoreError {
  if (error instanceof SessionStoreError) return error;
  const code = systemCode(error);
  const { file, sessionId } = place;
  const folder = path.dirname(file);
  const reason = `${firstLine(describeThrown(error))}${code && !describeThrown(error).includes(code) ? ` (${code})` : ''}`;
  const fail = (message: string, kind: 'store_failed' | 'store_damaged' = 'store_failed') =>
    new SessionStoreError(message, { code: kind, cause: error, ...(sessionId === undefined ? {} : { sessionId }) });
  if (code === undefined) return fail(`${file}: ${reason}.`);
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return fail(
      `${file} is damaged: ${reason}. Move it aside (mv "${file}" "${file}.damaged") and a new one is started; the sessions in it cannot be read.`,
      'store_damaged',
    );
  }
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL') {
    return fail(`${file} cannot be written, the disk is full: ${reason}. Free some space and try again.`);
  }
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM' || code.startsWith('SQLITE_READONLY')) {
    return fail(
      `${file} cannot be written: ${reason}. Make ${folder} writable for this user, or keep the sessions in another folder.`,
    );
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return fail(
      `${file} cannot be opened: ${reason}. SQLite reads and writes the file and the -wal and -shm files beside it: make ${folder} readable and writable for this user, or keep the sessions in another folder.`,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return fail(`${file} is busy: another process kept it locked too long (${reason}). Try again.`);
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    return fail(`Reading or writing ${file} failed: ${reason}. Check the disk, then try again.`);
  }
  return fail(`${file}: ${reason}.`);
}

/**
 * Runs `operation` and turns what it throws into a SessionStoreError naming the file (see `storeFailure`).
 */
export async function guarded<T>(place: FailurePlace, operation: () => Promise<T> | T): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw storeFailure(error, place);
  }
}

function systemCode(error: unknown): string | undefined {
  try {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' && code !== '' ? code : undefined;
  } catch {
    return undefined;
  }
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').replace(/\.$/, '');
}
