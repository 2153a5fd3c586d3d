import { SessionStoreError } from '@agentloop/memory';
import { describe, expect, it } from 'vitest';
import { describeConnection, postgresFailure } from './postgres-failure.js';

const WHERE = 'PostgreSQL database app on db.internal:5432';

/** An error as node-postgres gives one: the server's message and its SQLSTATE, or a socket's errno code. */
function pgError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('postgresFailure', () => {
  it.each([
    [
      '28P01',
      'password authentication failed for user "agent"',
      /^PostgreSQL database app on db\.internal:5432 refused the login: .*Check the user and password/,
    ],
    [
      '3D000',
      'database "app" does not exist',
      /does not exist: database "app" does not exist \(3D000\)\. Create it \(createdb\)/,
    ],
    ['42501', 'permission denied for schema public', /refused a write: .*Grant this user the right to create tables/],
    [
      '53100',
      'could not extend file: No space left on device',
      /cannot be written, its disk is full: .*Free some space/,
    ],
    ['53300', 'sorry, too many clients already', /has no free connection: .*raise max_connections/],
    [
      'ECONNREFUSED',
      'connect ECONNREFUSED 10.0.0.5:5432',
      /^Cannot reach PostgreSQL database app .*ECONNREFUSED 10\.0\.0\.5:5432\. Check that the server runs/,
    ],
  ])('says what to do for %s', (code, message, expected) => {
    const error = postgresFailure(pgError(message, code), WHERE, 's1');

    expect(error).toMatchObject({ code: 'store_failed', sessionId: 's1' });
    expect(error.message).toMatch(expected);
    expect((error.cause as Error).message).toBe(message);
  });

  it('calls a corrupt page damage, with store_damaged', () => {
    const error = postgresFailure(pgError('invalid page in block 7 of relation base/5/16384', 'XX001'), WHERE);

    expect(error).toMatchObject({ code: 'store_damaged' });
    expect(error.message).toMatch(/is damaged: .*Restore it from a backup/);
  });

  it('keeps a SessionStoreError as it is', () => {
    const original = new SessionStoreError('No session s1.', { code: 'session_not_found', sessionId: 's1' });

    expect(postgresFailure(original, WHERE)).toBe(original);
  });
});

describe('describeConnection', () => {
  it.each([
    ['postgres://agent:secret@db.internal:5432/app', 'PostgreSQL database app on db.internal:5432'],
    ['postgresql://agent@db.internal/app%20data', 'PostgreSQL database app data on db.internal'],
    ['postgresql://agent@/app?host=/var/run/postgresql', 'PostgreSQL database app on /var/run/postgresql'],
    ['postgres://agent:pa@ss@db.internal/app', 'PostgreSQL database app on db.internal'],
    ['postgres://db.internal:6432', 'the default PostgreSQL database on db.internal:6432'],
    ['postgres://agent:pa/ss@db.internal/app', 'the PostgreSQL database of the connection string'],
    ['not a url at all, password=secret', 'the PostgreSQL database of the connection string'],
  ])('names %s as %j, never with its password', (connectionString, description) => {
    expect(describeConnection(connectionString)).toBe(description);
  });
});
