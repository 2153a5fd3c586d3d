/**
 * Shell syntax that runs more than the command itself: a list or pipeline (`;`, `&`, `|`, a line break), a
 * substitution (`` ` ``, `$(`) or a redirection (`<`, `>`).
 */
const CHAINS_COMMANDS = /[;&|\n`<>]|\$\(/;

/**
 * True when `command` runs more than one command, or redirects. What allows a command by its text (a rule's
 * `command` pattern, a session grant's prefix) must not allow it then: `npm test*` or a grant for `npm test`
 * must not cover `npm test; rm -rf ~`.
 */
export function chainsCommands(command: string): boolean {
  return CHAINS_COMMANDS.test(command);
}

/**
 * True when `command` is covered by a grant for commands starting with `prefix`: the prefix whole (the
 * command is the prefix or goes on after a space), so a grant for `rm` does not cover `rmdir`, and no
 * chaining.
 */
export function startsWithCommand(command: string, prefix: string): boolean {
  if (!command.startsWith(prefix) || chainsCommands(command)) return false;
  const next = command.charAt(prefix.length);
  return next === '' || /\s/.test(next) || /\s$/.test(prefix);
}
