/** A grant a user gave with `allow-session`, kept in the object's state so that later runs have it too. */
export interface SessionGrant {
  /** The tool it allows. */
  toolName: string;
  /** Only its calls whose command starts with this, when set. */
  commandPrefix?: string;
}

// The same rule as core's approval gate applies to its own grants (which core keeps to itself): a
// grant for `npm test` covers `npm test -- a` but not `npm testing`, and never a command that chains
// another (`;`, `&`, `|`, a line break, a substitution or a redirection).
const CHAINS_COMMANDS = /[;&|\n`<>]|\$\(/;

/** True when the grant covers a call of `toolName` with `command`. */
export function grantCovers(grant: SessionGrant, toolName: string, command: string | undefined): boolean {
  if (grant.toolName !== toolName) return false;
  const prefix = grant.commandPrefix;
  if (prefix === undefined) return true;
  if (command === undefined || !command.startsWith(prefix) || CHAINS_COMMANDS.test(command)) return false;
  const next = command.charAt(prefix.length);
  return next === '' || /\s/.test(next) || /\s$/.test(prefix);
}
