import { SessionStoreError } from './session-store-error.js';

// Letters, digits, `-`, `_` and `.`, not starting with `.`: a file name on every platform, never `..`, a
// path or a hidden file, and a value that needs no quoting in a terminal.
const SESSION_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** Throws an `invalid_session_id` SessionStoreError unless `id` follows the SessionStore contract's rule. */
export function assertSessionId(id: unknown): asserts id is string {
  if (typeof id === 'string' && SESSION_ID.test(id)) return;
  throw new SessionStoreError(
    `${JSON.stringify(id) ?? String(id)} is not a session id: use 1 to 128 letters, digits, "-", "_" or ".", not starting with ".".`,
    { code: 'invalid_session_id' },
  );
}
