import { loadConfig } from '../config/index.js';
import { CliError } from '../errors/index.js';
import type { Style, TerminalOutput } from '../render/index.js';
import { outputWidth } from '../render/index.js';
import { EXIT_CODES } from '../session/exit-codes.js';
import { openSessionStore } from './open-session-store.js';
import { formatSessionList } from './session-list-lines.js';
import { sessionStoreLocation, sessionsConfigOf } from './session-store-location.js';

/** Where `agentloop sessions` reads and writes; injectable for tests. */
export interface ListSessionsOptions {
  cwd: string;
  /** Every directory's sessions, not only this one's. */
  all: boolean;
  userConfigFile?: string;
  output: TerminalOutput;
  errorOutput: TerminalOutput;
  style: Style;
}

/**
 * `agentloop sessions`: the saved sessions of this directory (`--all`: of every directory), the most
 * recent first, with what `--resume <id>` needs. Exit status 0, or 2 for an invalid configuration.
 */
export async function listSessions(options: ListSessionsOptions): Promise<number> {
  const { output, style } = options;
  let location: ReturnType<typeof sessionStoreLocation>;
  try {
    const config = await loadConfig({
      cwd: options.cwd,
      ...(options.userConfigFile ? { userFile: options.userConfigFile } : {}),
    });
    location = sessionStoreLocation(sessionsConfigOf(config));
  } catch (error) {
    // A configuration that is wrong, or a store it names that cannot be reached (a variable unset).
    if (!(error instanceof CliError)) throw error;
    options.errorOutput.write(`✗ ${error.message}\n`);
    return EXIT_CODES.usage;
  }
  if (!location) {
    output.write('Sessions are not saved: the configuration says [sessions] store = "off".\n');
    return EXIT_CODES.success;
  }
  const store = await openSessionStore(location);
  try {
    const sessions = await store.list(options.all ? {} : { workspace: options.cwd });
    if (sessions.length === 0) {
      const scope = options.all ? '' : ` for ${options.cwd}`;
      output.write(`No saved sessions${scope} (they are kept in ${location.path}).\n`);
      if (!options.all) output.write(style.dim('agentloop sessions --all lists those of every directory.\n'));
      return EXIT_CODES.success;
    }
    // Cut to the terminal's width; piped into another program, whole.
    const width = output.isTTY ? outputWidth(output) : Number.POSITIVE_INFINITY;
    output.write(formatSessionList(sessions, { style, showWorkspace: options.all, width }));
    output.write(
      style.dim(
        'agentloop --resume <id> resumes one (the first characters of the id are enough); --continue the last one here.\n',
      ),
    );
    return EXIT_CODES.success;
  } finally {
    await store.close();
  }
}
