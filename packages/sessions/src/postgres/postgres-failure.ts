import { SessionStoreError } from '@agentloop/memory';
import { describeThrown } from '@agentloop/spec';

/**
 * What node-postgres or the server threw, as a SessionStoreError of one line that names the database
 * (`where`, never with its password) and says what to do. A SessionStoreError is kept as it is.
 */
export function postgresFailure(error: unknown, where: string, sessionId?: string): SessionStoreError {
  if (error instanceof SessionStoreError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const text = describeThrown(error).split('\n')[0]?.replace(/\.$/, '') ?? '';
  const reason = typeof code === 'string' && !text.includes(code) ? `${text} (${code})` : text;
  const fail = (message: string, kind: 'store_failed' | 'store_damaged' = 'store_failed') =>
    new SessionStoreError(message, { code: kind, cause: error, ...(sessionId === undefined ? {} : { sessionId }) });
  switch (typeof code === 'string' ? code : '') {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'ETIMEDOUT':
    case 'ECONNRESET':
    case 'EHOSTUNREACH':
    case '57P01':
    case '57P02':
    case '57P03':
      return fail(
        `Cannot reach ${where}: ${reason}. Check that the server runs and that the connection string names it.`,
      );
    case '28P01':
    case '28000':
      return fail(`${where} refused the login: ${reason}. Check the user and password of the connection string.`);
    case '3D000':
      return fail(`${where} does not exist: ${reason}. Create it (createdb) or name another database.`);
    case '42501':
      return fail(
        `${where} refused a write: ${reason}. Grant this user the right to create tables and to write the agentloop_ tables.`,
      );
    case '53100':
      return fail(`${where} cannot be written, its disk is full: ${reason}. Free some space and try again.`);
    case '53300':
      return fail(`${where} has no free connection: ${reason}. Try again, or raise max_connections.`);
    case 'XX001':
    case 'XX002':
      return fail(`${where} is damaged: ${reason}. Restore it from a backup.`, 'store_damaged');
    default:
      return fail(`${where}: ${reason}.`);
  }
}

/**
 * Where a connection string leads, for messages: `PostgreSQL database <db> on <host>:<port>`, never with
 * its user or password. Read by hand: WHATWG URL refuses libpq's forms without a host
 * (`postgresql://user@/db?host=/var/run/postgresql`), and anything not understood gets a phrase that
 * names nothing rather than a risk of showing a password.
 */
export function describeConnection(connectionString: string): string {
  const unknown = 'the PostgreSQL database of the connection string';
  const match = /^postgres(?:ql)?:\/\/([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?$/.exec(connectionString.trim());
  if (!match) return unknown;
  const [, authority = '', path = '', query = ''] = match;
  // An unescaped `/` or `?` in a password ends the authority early: what follows would hold the rest of it.
  if (path.includes('@') || query.includes('@')) return unknown;
  try {
    const parameters = new URLSearchParams(query);
    const host = authority.slice(authority.lastIndexOf('@') + 1) || parameters.get('host') || 'localhost';
    const database = decodeURIComponent(path) || parameters.get('dbname');
    const on = decodeURIComponent(host);
    return database ? `PostgreSQL database ${database} on ${on}` : `the default PostgreSQL database on ${on}`;
  } catch {
    return unknown;
  }
}
