import { CommanderError } from 'commander';
import { EXIT_CODES } from '../session/exit-codes.js';
import { createRedactor, environmentSecrets } from '../verbose/redact.js';
import { configInit, configPath } from './config-command.js';
import { installConsoleGuard } from './console-guard.js';
import { createProgram } from './program.js';
import type { SessionHooks } from './start-session.js';
import { startInteractive, startRun } from './start-session.js';

/**
 * The `agentloop` command: parses the arguments, runs the command, and resolves with its exit status.
 * Usage errors (an unknown option, a bad value) exit with 2. While it runs, the global console writes
 * through the CLI's sanitiser and redaction to stderr (see installConsoleGuard); it is put back after.
 */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  const consoleGuard = installConsoleGuard({
    errorOutput: process.stderr,
    redact: createRedactor(environmentSecrets(process.env)),
  });
  try {
    return await runProgram(argv, { consoleGuard });
  } finally {
    consoleGuard.restore();
  }
}

async function runProgram(argv: readonly string[], session: SessionHooks): Promise<number> {
  let status: number = EXIT_CODES.success;
  const program = createProgram(
    {
      interactive: (task, flags) => startInteractive(task, flags, session),
      run: (task, flags, options) => startRun(task, flags, options, session),
      configInit: (options) => configInit(options, process.stdout, process.stderr),
      configPath: (cwd) => configPath(cwd, process.stdout),
      // Loaded on use: the MCP SDK is not small, and no other command needs it.
      mcpList: async (cwd) => {
        const [{ mcpList }, { createStyle, terminalFeatures }] = await Promise.all([
          import('../mcp/index.js'),
          import('../render/index.js'),
        ]);
        const style = createStyle(terminalFeatures(process.stdout).color);
        return mcpList({ cwd, output: process.stdout, errorOutput: process.stderr, style });
      },
      mcpLogin: async (options) => {
        const [{ mcpLogin }, { createStyle, terminalFeatures }] = await Promise.all([
          import('../mcp/index.js'),
          import('../render/index.js'),
        ]);
        const style = createStyle(terminalFeatures(process.stdout).color);
        return mcpLogin({ ...options, output: process.stdout, errorOutput: process.stderr, style });
      },
      mcpLogout: async (options) => {
        const [{ mcpLogout }, { createStyle, terminalFeatures }] = await Promise.all([
          import('../mcp/index.js'),
          import('../render/index.js'),
        ]);
        const style = createStyle(terminalFeatures(process.stdout).color);
        return mcpLogout({ ...options, output: process.stdout, errorOutput: process.stderr, style });
      },
      sessions: async ({ cwd, all }) => {
        const [{ listSessions }, { createStyle, terminalFeatures }] = await Promise.all([
          import('../session-store/index.js'),
          import('../render/index.js'),
        ]);
        const style = createStyle(terminalFeatures(process.stdout).color);
        return listSessions({ cwd, all, output: process.stdout, errorOutput: process.stderr, style });
      },
      // Loaded on use, as the MCP SDK is: the ACP SDK serves editors only.
      acp: async (flags) => (await import('./acp-command.js')).startAcp(flags, session),
      // Loaded on use: the HTTP server, the handler and their libraries serve a browser only.
      serve: async (flags, options) => (await import('./serve-command.js')).startServe(flags, options, session),
    },
    (result) => {
      status = result;
    },
  );
  // Every level, `mcp login` included: a usage error anywhere exits with 2, not through process.exit.
  const overrideExits = (command: typeof program): void => {
    command.exitOverride();
    for (const subcommand of command.commands) overrideExits(subcommand);
  };
  overrideExits(program);
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_CODES.success : EXIT_CODES.usage;
    throw error;
  }
  return status;
}
