import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxStatus } from '@agentloop/workspace-tools';

/**
 * Whether run_command's sandbox runs on this machine. Where it does not, a session says so before its
 * first turn; a test that is not about the sandbox configures it off (see CliWorkspace), as a user
 * without bubblewrap would, so its output is the same with bubblewrap and without.
 */
export const SANDBOX = await sandboxStatus();

/** The built command the end-to-end tests run. */
export const AGENTLOOP_BIN = fileURLToPath(new URL('../../bin/agentloop.js', import.meta.url));

/** The repository's root, wherever it was checked out, for what a message tells the user to run there. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../../../', import.meta.url)).replace(/\/$/, '');

/**
 * Fails with what to do when the command has not been built (the end-to-end tests run the build).
 * `main` is the built entry to look for; its default is the command's own.
 */
export function assertBuilt(main = fileURLToPath(new URL('../../dist/command/main.js', import.meta.url))): void {
  if (!existsSync(main)) {
    throw new Error(`${main} is missing: build first (cd ${shellQuote(REPOSITORY_ROOT)} && npm run build).`);
  }
}

/**
 * A plugin module that holds nothing but says when it is disposed: it appends `disposed` to
 * `.agentloop/disposed.txt` in the project.
 */
export const DISPOSE_PLUGIN = `
import { appendFileSync } from 'node:fs';
export default {
  name: 'e2e-dispose',
  register() {},
  dispose() { appendFileSync(new URL('./disposed.txt', import.meta.url), 'disposed\\n'); },
};
`;

/**
 * A plugin module with one tool, `slow_tool`, that waits the given seconds or until it is cancelled. It
 * declares itself read-only, so that no approval mode asks about it.
 */
const SLOW_PLUGIN = `
const TOOL = Symbol.for('agentloop.Tool');
export default {
  name: 'e2e-slow-tool',
  register(container) {
    container.register(TOOL, () => ({
      name: 'slow_tool',
      description: 'Waits the given number of seconds.',
      parameters: { type: 'object', properties: { seconds: { type: 'number' } }, required: ['seconds'] },
      annotations: { readOnly: true, openWorld: false },
      execute: (args, context) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve('waited ' + args.seconds + ' s'), args.seconds * 1000);
          context.signal.addEventListener('abort', () => { clearTimeout(timer); reject(new Error('stopped: cancelled')); }, { once: true });
        }),
    }));
  },
};
`;

/** Options of a CliWorkspace. */
export interface CliWorkspaceOptions {
  /** Give the project the `slow_tool` plugin. */
  slowTool?: boolean;
  /** More plugin modules of the project, by file name and source. */
  plugins?: Record<string, string>;
  /**
   * Where the sandbox cannot run: `off` (the default) configures it off in the user configuration, so the
   * session shows no warning a test does not expect; `as-is` keeps the default sandbox, for a test of what
   * the command says and does without one.
   */
  sandboxWhereMissing?: 'off' | 'as-is';
}

/**
 * A throwaway project for one test: a working directory with a file to read, a user config directory
 * (with `[sandbox] mode = "off"` where the sandbox cannot run, see CliWorkspaceOptions), and optionally a
 * project configuration loading plugins: the `slow_tool` plugin, and modules given by file name and
 * source, written to `.agentloop/`.
 */
export class CliWorkspace {
  readonly root = mkdtempSync(join(tmpdir(), 'agentloop-e2e-'));
  readonly project = join(this.root, 'project');
  readonly configHome = join(this.root, 'config');
  /** The user configuration the command reads (`$XDG_CONFIG_HOME/agentloop/config.toml`). */
  readonly userConfigFile = join(this.configHome, 'agentloop', 'config.toml');

  constructor(options: CliWorkspaceOptions = {}) {
    mkdirSync(this.project);
    mkdirSync(this.configHome);
    const userConfig: string[] = [];
    writeFileSync(join(this.project, 'notes.txt'), 'Remember the milk.\n');
    writeFileSync(join(this.project, 'README.md'), '# Demo project\n');
    const plugins = { ...(options.slowTool ? { 'slow-plugin.mjs': SLOW_PLUGIN } : {}), ...options.plugins };
    if (Object.keys(plugins).length > 0) {
      mkdirSync(join(this.project, '.agentloop'));
      for (const [file, source] of Object.entries(plugins))
        writeFileSync(join(this.project, '.agentloop', file), source);
      const list = Object.keys(plugins).map((file) => JSON.stringify(`./${file}`));
      writeFileSync(join(this.project, '.agentloop', 'config.toml'), `plugins = [${list.join(', ')}]\n`);
      // A project's plugins run only when the user's configuration trusts the project.
      userConfig.push(`trusted_projects = [${JSON.stringify(this.project)}]\n`);
    }
    if (!SANDBOX.available && (options.sandboxWhereMissing ?? 'off') === 'off') {
      userConfig.push('[sandbox]\nmode = "off"\n');
    }
    if (userConfig.length > 0) {
      mkdirSync(join(this.configHome, 'agentloop'));
      writeFileSync(join(this.configHome, 'agentloop', 'config.toml'), userConfig.join(''));
    }
  }

  /**
   * The environment the command runs with: nothing from the test's own environment but PATH, so no API
   * key or user configuration leaks in.
   */
  environment(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.root,
      XDG_CONFIG_HOME: this.configHome,
      LANG: 'C.UTF-8',
      ...extra,
    };
  }

  /** A shell command line that runs `agentloop` with these arguments in the workspace, with `environment()`. */
  commandLine(args: readonly string[], extraEnvironment: Record<string, string> = {}): string {
    const variables = Object.entries(this.environment(extraEnvironment)).map(
      ([name, value]) => `${name}=${shellQuote(value)}`,
    );
    return `cd ${shellQuote(this.project)} && env -i ${variables.join(' ')} TERM=xterm-256color ${shellQuote(process.execPath)} ${shellQuote(AGENTLOOP_BIN)} ${args.map(shellQuote).join(' ')}`;
  }

  /** Adds TOML to the user configuration, after what it holds (the sandbox setting, servers added before). */
  appendUserConfig(toml: string): void {
    mkdirSync(dirname(this.userConfigFile), { recursive: true });
    appendFileSync(this.userConfigFile, toml);
  }

  /** How many times DISPOSE_PLUGIN's `dispose` ran. */
  disposals(): number {
    const file = join(this.project, '.agentloop', 'disposed.txt');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0;
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
