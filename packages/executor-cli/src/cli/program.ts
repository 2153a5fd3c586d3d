import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { CliFlags } from '../config/index.js';
import { closestCommands } from './closest-commands.js';
import type { ServeFlags } from './serve-settings.js';

/** What the commands do; `createProgram` only parses. Each resolves with the exit status. */
export interface ProgramActions {
  interactive(task: string | undefined, flags: CliFlags): Promise<number>;
  run(task: string | undefined, flags: CliFlags, options: { json: boolean }): Promise<number>;
  configInit(options: { project: boolean; force: boolean; cwd: string }): number;
  configPath(cwd: string): number;
  mcpList(cwd: string): Promise<number>;
  /** `agentloop mcp login NAME [--scopes a,b]`: an OAuth login to an HTTP server. */
  mcpLogin(options: { cwd: string; name: string; scopes?: string[] }): Promise<number>;
  /** `agentloop mcp logout NAME`: forgets the server's tokens. */
  mcpLogout(options: { cwd: string; name: string }): Promise<number>;
  /** `agentloop sessions`: the saved sessions of the directory, or of every directory with `all`. */
  sessions(options: { cwd: string; all: boolean }): Promise<number>;
  /** `agentloop acp`: serves an editor over the Agent Client Protocol until it closes stdin. */
  acp(flags: CliFlags): Promise<number>;
  /** `agentloop serve`: serves the web page and its API until Ctrl-C. */
  serve(flags: CliFlags, options: ServeFlags): Promise<number>;
}

/** The `agentloop` command line: options, the `run` and `config` subcommands, help texts. */
export function createProgram(actions: ProgramActions, report: (status: number) => void): Command {
  const program = new Command('agentloop')
    .description('An LLM agent in your terminal: it works in a loop, calling tools, until the task is done.')
    .version(packageVersion(), '-V, --version')
    .argument('[task]', 'a first task for the session')
    .option(
      '--provider <name>',
      'provider: anthropic, openai, openai-responses, google, or a [providers.<name>] of the configuration',
    )
    .option('--model <model>', 'model, or provider:model (e.g. anthropic:claude-sonnet-4-6)')
    .option(
      '--base-url <url>',
      'base URL of the API, e.g. http://localhost:11434/v1 for Ollama; without user:password@ (a credential goes in the configuration: api_key, or headers)',
    )
    .addOption(new Option('--protocol <protocol>', 'how tools reach the model').choices(['auto', 'native', 'xml']))
    .option('--max-iterations <count>', 'model calls per task before the agent stops', positiveInteger)
    .addOption(
      new Option(
        '--on-max-iterations <ending>',
        'at the limit: wrap-up (the last call asks the model to finish and say what remains) or stop',
      ).choices(['wrap-up', 'stop']),
    )
    .addOption(
      new Option(
        '--approval <mode>',
        'when tool calls wait for your approval: read-only, ask (before any change), auto (default: only what leaves the workspace) or yolo (never)',
      ).choices(['read-only', 'ask', 'auto', 'yolo']),
    )
    .addOption(
      new Option('--sandbox <mode>', "run_command's sandbox: workspace-write (default), read-only or off").choices([
        'workspace-write',
        'read-only',
        'off',
      ]),
    )
    .option('--system <prompt>', 'instructions added to the system prompt')
    .option('--cwd <dir>', 'working directory: the workspace tools see and where .agentloop/config.toml is looked for')
    .option('--verbose', 'show thinking whole; log model requests and responses and tool calls to stderr')
    .option('-c, --continue', 'resume the last session of this directory')
    .option(
      '-r, --resume [id]',
      'resume a saved session: by id (its first characters will do), or pick one from a list',
    )
    .option(
      '--record <file>',
      "record every model request and response to a cassette file (JSON lines, keys redacted) for @agentloop/core/testing's replayProvider",
    )
    .showHelpAfterError('(agentloop --help shows the options)')
    .addHelpText('after', EXIT_STATUS_HELP)
    .action(async (task: string | undefined, _options: unknown, command: Command) => {
      rejectExtraWords(command);
      report(await actions.interactive(task, flagsOf(command)));
    });

  program
    .command('run')
    .description('run one task and exit; the exit status says how it ended')
    .argument('[task]', 'the task; without it, or with "-", the task is read from piped stdin')
    .option('--json', 'print the agent events as JSON lines')
    .addHelpText('after', EXIT_STATUS_HELP)
    .action(async (task: string | undefined, options: { json?: boolean }, command: Command) => {
      rejectExtraWords(command);
      report(await actions.run(task, flagsOf(command), { json: options.json ?? false }));
    })
    .allowExcessArguments();

  // A group's own help lists its subcommands; the root's, which a mistyped subcommand would otherwise
  // point to, does not.
  const config = program
    .command('config')
    .description('configuration files')
    .showHelpAfterError('(agentloop config --help lists its subcommands: init, path)');
  config
    .command('init')
    .description('write a commented configuration template (the user file, or the project file with --project)')
    .option('--project', 'write .agentloop/config.toml in the working directory')
    .option('--force', 'replace an existing file')
    .action((options: { project?: boolean; force?: boolean }, command: Command) =>
      report(
        actions.configInit({
          project: options.project ?? false,
          force: options.force ?? false,
          cwd: flagsOf(command).cwd ?? process.cwd(),
        }),
      ),
    );
  config
    .command('path')
    .description('show where the configuration files are')
    .action((_options: unknown, command: Command) => report(actions.configPath(flagsOf(command).cwd ?? process.cwd())));
  const mcp = program
    .command('mcp')
    .description('MCP servers ([mcp_servers.NAME] in the configuration)')
    .showHelpAfterError('(agentloop mcp --help lists its subcommands: list, login, logout)');
  mcp
    .command('list')
    .description('start the configured MCP servers, show their state, tools and logins, and end them')
    .action(async (_options: unknown, command: Command) =>
      report(await actions.mcpList(flagsOf(command).cwd ?? process.cwd())),
    );
  mcp
    .command('login')
    .description('log in to an MCP server that wants OAuth: in the browser, or alone with client credentials')
    .argument('<name>', 'the server, as [mcp_servers.NAME] names it')
    .option('--scopes <scopes>', 'scopes to ask for beside the configured ones, comma-separated', scopeList)
    .action(async (name: string, options: { scopes?: string[] }, command: Command) =>
      report(
        await actions.mcpLogin({
          cwd: flagsOf(command).cwd ?? process.cwd(),
          name,
          ...(options.scopes ? { scopes: options.scopes } : {}),
        }),
      ),
    );
  mcp
    .command('logout')
    .description("forget an MCP server's OAuth tokens")
    .argument('<name>', 'the server, as [mcp_servers.NAME] names it')
    .action(async (name: string, _options: unknown, command: Command) =>
      report(await actions.mcpLogout({ cwd: flagsOf(command).cwd ?? process.cwd(), name })),
    );
  program
    .command('sessions')
    .description('list the saved sessions of this directory, the most recent first (--resume <id> resumes one)')
    .option('--all', "every directory's sessions")
    .action(async (options: { all?: boolean }, command: Command) =>
      report(await actions.sessions({ cwd: flagsOf(command).cwd ?? process.cwd(), all: options.all ?? false })),
    );
  program
    .command('acp')
    .description("serve an editor over the Agent Client Protocol on stdin and stdout (Zed's agent_servers)")
    .action(async (_options: unknown, command: Command) => report(await actions.acp(flagsOf(command))));
  program
    .command('serve')
    .description('serve the agent to a browser: a web page, and its API (AG-UI, the AI SDK stream), until Ctrl-C')
    .option('--port <port>', 'the TCP port (default 4680, or [serve] port; 0 picks a free one)', portNumber)
    .option(
      '--host <address>',
      'the address to listen on (default 127.0.0.1, this machine only); another one needs a token you chose',
    )
    .option(
      '--token <token>',
      'the bearer token (at least 16 characters; default: random at each start); [serve] token_env_var keeps it out of the process list',
    )
    .option('--open', 'open the page in a browser ($BROWSER, or the system opener)')
    .action(async (options: ServeFlags, command: Command) => {
      const serveFlags: ServeFlags = {};
      if (typeof options.port === 'number') serveFlags.port = options.port;
      if (typeof options.host === 'string') serveFlags.host = options.host;
      if (typeof options.token === 'string') serveFlags.token = options.token;
      if (options.open === true) serveFlags.open = true;
      report(await actions.serve(flagsOf(command), serveFlags));
    });
  // Set last, so that the subcommands do not inherit it: rejectExtraWords says more than commander would.
  program.allowExcessArguments();
  return program;
}

/**
 * Words beyond the one task: a mistyped subcommand (`agentloop rnu hello`) gets commander's "unknown
 * command" with the subcommand it is closest to, and any other words a hint to quote the task. A single
 * word stays a task, whatever it looks like (`agentloop hello`); so does a first word with a space in it.
 */
function rejectExtraWords(command: Command): void {
  if (command.args.length <= 1) return;
  const [first = ''] = command.args;
  const names = command.parent
    ? []
    : command
        .createHelp()
        .visibleCommands(command)
        .map((sub) => sub.name());
  const closest = /^[A-Za-z][\w-]*$/.test(first) ? closestCommands(first, names) : [];
  if (closest.length > 0) {
    const suggestion = closest.length === 1 ? closest[0] : `one of ${closest.join(', ')}`;
    command.error(`error: unknown command '${first}'\n(Did you mean ${suggestion}?)`, {
      code: 'commander.unknownCommand',
    });
  }
  const name = command.parent ? `agentloop ${command.name()}` : 'agentloop';
  command.error(
    `error: too many arguments: ${name} takes one task, and a task of several words goes in quotes, e.g. ${name} "fix the failing test"`,
    { code: 'commander.excessArguments' },
  );
}

const EXIT_STATUS_HELP = `
Exit status:
  0    the task was completed (or the agent answered)
  1    the run failed (provider or network error)
  2    bad usage or setup: no provider configured, invalid configuration, bad option
  3    the agent asked a question (agentloop run cannot answer it)
  4    the iteration limit was reached
  130  cancelled with Ctrl-C
  143  ended by SIGTERM (the run cancelled, the plugins disposed)`;

function flagsOf(command: Command): CliFlags {
  const options = command.optsWithGlobals<Record<string, unknown>>();
  const flags: CliFlags = {};
  for (const key of ['provider', 'model', 'baseUrl', 'protocol', 'system', 'cwd', 'record'] as const) {
    if (typeof options[key] === 'string') (flags as Record<string, string>)[key] = options[key];
  }
  if (typeof options.maxIterations === 'number') flags.maxIterations = options.maxIterations;
  if (options.onMaxIterations === 'wrap-up' || options.onMaxIterations === 'stop')
    flags.onMaxIterations = options.onMaxIterations;
  if (options.verbose === true) flags.verbose = true;
  if (options.continue === true) flags.continue = true;
  if (options.resume === true || typeof options.resume === 'string') flags.resume = options.resume;
  // commander checked them against the choices.
  if (typeof options.approval === 'string') flags.approval = options.approval as NonNullable<CliFlags['approval']>;
  if (typeof options.sandbox === 'string') flags.sandbox = options.sandbox as NonNullable<CliFlags['sandbox']>;
  return flags;
}

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('Must be a whole number of at least 1.');
  return number;
}

function portNumber(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number > 65535) throw new InvalidArgumentError('Must be a port number from 0 to 65535.');
  return number;
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

/** `--scopes a,b`: scope names, without blanks. */
function scopeList(value: string): string[] {
  const scopes = value
    .split(',')
    .map((scope) => scope.trim())
    .filter(Boolean);
  if (scopes.length === 0 || scopes.some((scope) => /\s/.test(scope))) {
    throw new InvalidArgumentError('give scope names separated by commas, e.g. --scopes read,write');
  }
  return scopes;
}
