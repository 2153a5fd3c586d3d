import { SessionStoreError } from '@agentloop/memory';
import { describe, expect, it } from 'vitest';
import { storeFailure } from './store-failure.js';

const FILE = '/data/agentloop/sessions/sessions.sqlite';
const systemError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('storeFailure', () => {
  it('keeps a SessionStoreError as it is', () => {
    const locked = new SessionStoreError('Session s1 is open in process 7.', { code: 'session_locked' });
    expect(storeFailure(locked, { file: FILE })).toBe(locked);
  });

  it.each([
    [
      'a permission refused',
      systemError('EACCES', "EACCES: permission denied, open '/data/agentloop/sessions/sessions.sqlite'"),
      `${FILE} cannot be written: EACCES: permission denied, open '${FILE}'. Make /data/agentloop/sessions writable for this user, or keep the sessions in another folder.`,
    ],
    [
      'a read-only database',
      systemError('SQLITE_READONLY_DBMOVED', 'attempt to write a readonly database'),
      `${FILE} cannot be written: attempt to write a readonly database (SQLITE_READONLY_DBMOVED). Make /data/agentloop/sessions writable for this user, or keep the sessions in another folder.`,
    ],
    [
      'an I/O error',
      systemError('SQLITE_IOERR_WRITE', 'disk I/O error'),
      `Reading or writing ${FILE} failed: disk I/O error (SQLITE_IOERR_WRITE). Check the disk, then try again.`,
    ],
    ['anything else', new Error('something odd'), `${FILE}: something odd.`],
  ])('says what to do about %s, naming the file, as store_failed', (_name, error, message) => {
    expect(storeFailure(error, { file: FILE, sessionId: 's1' })).toMatchObject({
      code: 'store_failed',
      sessionId: 's1',
      message,
      cause: error,
    });
  });
});
