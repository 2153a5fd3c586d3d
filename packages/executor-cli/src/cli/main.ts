import { CommanderError } from 'commander';
import { EXIT_CODES } from '../session/index.js';
import { configInit, configPath } from './config-command.js';
import { createProgram } from './program.js';
import { startInteractive, startRun } from './start-session.js';

/**
 * The `agentloop` command: parses the arguments, runs the command, and resolves with its exit status.
 * Usage errors (an unknown option, a bad value) exit with 2.
 */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  let status: number = EXIT_CODES.success;
  const program = createProgram(
    {
      interactive: startInteractive,
      run: startRun,
      configInit: (options) => configInit(options, process.stdout, process.stderr),
      configPath: (cwd) => configPath(cwd, process.stdout),
    },
    (result) => {
      status = result;
    },
  );
  program.exitOverride();
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_CODES.success : EXIT_CODES.usage;
    throw error;
  }
  return status;
}
