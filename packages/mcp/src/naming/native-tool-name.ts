import { createHash } from 'node:crypto';

/** What every provider accepts as a tool name (Anthropic and OpenAI agree on it). */
export const NATIVE_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** What separates the server's name from the tool's in a native name: `github__create_issue`. */
export const SERVER_SEPARATOR = '__';

const MAX_LENGTH = 64;
const HASH_LENGTH = 8;

/**
 * The name a server's tool is called by in native mode: `server__tool`. Characters a provider refuses
 * (`.`, `/`, spaces) become `_`; a name that was changed so, or that is longer than 64 characters, gets a
 * hash of the original pair at its end (`server__long_na_1a2b3c4d`), as does every name of a server whose
 * name ends in `_` (see below), so that it stays the same across
 * sessions (prompt caches and recorded conversations depend on it) and two tools never share one.
 * Never throws.
 */
export function nativeToolName(serverName: string, toolName: string): string {
  const joined = `${sanitize(serverName)}${SERVER_SEPARATOR}${sanitize(toolName)}`;
  // A server name ending in `_` would make the split ambiguous (`a_` + `_b` and `a` + `__b` both join to
  // `a____b`; server names never hold `__`), so such a server's names carry the hash too.
  const exact = joined === `${serverName}${SERVER_SEPARATOR}${toolName}` && !serverName.endsWith('_');
  if (exact && joined.length <= MAX_LENGTH) return joined;
  const hash = createHash('sha256').update(`${serverName}\u0000${toolName}`).digest('hex').slice(0, HASH_LENGTH);
  return `${joined.slice(0, MAX_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

/** The name with each character a provider refuses replaced by `_`. */
function sanitize(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_');
}
