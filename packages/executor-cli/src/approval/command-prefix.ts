/**
 * Programs whose first argument names what they do (`npm test`, `git status`, `cargo build`): a grant for
 * "npm" would allow `npm publish` too, so their prefix keeps the subcommand.
 */
const WITH_SUBCOMMAND = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'npx',
  'deno',
  'git',
  'cargo',
  'go',
  'docker',
  'kubectl',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'dotnet',
  'mvn',
  'gradle',
  './gradlew',
  'make',
  'just',
  'composer',
  'bundle',
  'rails',
  'mix',
  'swift',
]);

/** Subcommands that run a named script or task, whose name belongs in the prefix (`npm run lint`). */
const RUNS_A_SCRIPT = new Set(['run', 'exec', 'run-script', 'x', 'dlx']);

/**
 * Programs that run code they are given (`node build.js`, `bash -c "..."`): a grant keeps what they run,
 * never the bare program, which would allow any script.
 */
const INTERPRETERS = new Set([
  'node',
  'python',
  'python3',
  'bash',
  'sh',
  'zsh',
  'ruby',
  'perl',
  'php',
  'tsx',
  'ts-node',
]);

/** Programs that run another command (`sudo`, `env`, `xargs`): a grant keeps the whole command. */
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'xargs',
  'time',
  'nice',
  'nohup',
  'timeout',
  'watch',
  'exec',
  'eval',
  'command',
  'builtin',
  'find',
]);

/** Where shell syntax starts another command, a substitution or a redirection. */
const SHELL_SYNTAX = /[;&|\n`<>]|\$\(/;

/**
 * The start of a command that "allow for this session" grants: its program, with the subcommand for
 * programs that have them (`npm test`, `git status`), the script's name for a runner (`npm run lint`), the
 * script or module for an interpreter (`node build.js`, `python -m pytest`), and the whole command for a
 * wrapper (`sudo ...`) or an interpreter given code inline. Only the first command of a chain counts (core
 * asks again about any command that chains another). It is a prefix of the command as written.
 */
export function commandPrefix(command: string): string {
  const text = command.trimStart();
  const first = text.split(SHELL_SYNTAX)[0]?.trimEnd() ?? '';
  const words = [...first.matchAll(/\S+/g)];
  const program = words[0]?.[0];
  if (program === undefined) return text;
  const plain = (index: number) => {
    const word = words[index]?.[0];
    return word !== undefined && /^[\w@./:=+-]+$/.test(word) && !word.startsWith('-');
  };
  let count = 1;
  if (WRAPPERS.has(program)) count = words.length;
  else if (/^python3?$/.test(program) && words[1]?.[0] === '-m' && plain(2)) count = 3;
  else if (INTERPRETERS.has(program)) count = plain(1) ? 2 : words.length;
  else if (WITH_SUBCOMMAND.has(program) && plain(1)) {
    count = 2;
    if (RUNS_A_SCRIPT.has(words[1]?.[0] ?? '') && plain(2)) count = 3;
  }
  const last = words[count - 1] as RegExpMatchArray;
  return first.slice(0, (last.index ?? 0) + last[0].length);
}
