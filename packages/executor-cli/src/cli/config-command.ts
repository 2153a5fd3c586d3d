import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CONFIG_TEMPLATE, findProjectConfig, PROJECT_CONFIG_PATH, userConfigPath } from '../config/index.js';
import type { TerminalOutput } from '../render/index.js';
import { EXIT_CODES } from '../session/exit-codes.js';

/** Options of `agentloop config init`. */
export interface ConfigInitOptions {
  /** Write `.agentloop/config.toml` in `cwd` instead of the user's file. */
  project?: boolean;
  /** Replace an existing file. */
  force?: boolean;
  cwd: string;
  userConfigFile?: string;
}

/**
 * `agentloop config init`: writes the commented template, readable by the user alone since it may come to
 * hold API keys; refuses to replace a file without `force`. A file that cannot be written is reported in
 * one line, with exit status 1.
 */
export function configInit(options: ConfigInitOptions, output: TerminalOutput, errorOutput: TerminalOutput): number {
  const file = options.project
    ? join(resolve(options.cwd), PROJECT_CONFIG_PATH)
    : (options.userConfigFile ?? userConfigPath());
  if (existsSync(file) && !options.force) {
    errorOutput.write(`${file} already exists; add --force to replace it.\n`);
    return EXIT_CODES.usage;
  }
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, CONFIG_TEMPLATE, { mode: 0o600 });
    // The mode applies only to a new file; a replaced one keeps its own.
    chmodSync(file, 0o600);
  } catch (error) {
    errorOutput.write(`✗ Cannot write ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_CODES.error;
  }
  output.write(`Wrote ${file}\nEvery setting in it is commented out; remove the "#" of those you want.\n`);
  return EXIT_CODES.success;
}

/** `agentloop config path`: where the configuration files are, and whether they exist. */
export function configPath(cwd: string, output: TerminalOutput, userConfigFile = userConfigPath()): number {
  const project = findProjectConfig(cwd);
  const state = (file: string) => (existsSync(file) ? '' : ' (not created; `agentloop config init` writes it)');
  output.write(`user:    ${userConfigFile}${state(userConfigFile)}\n`);
  output.write(
    `project: ${project ?? `${join(resolve(cwd), PROJECT_CONFIG_PATH)} (none here or above; \`agentloop config init --project\` writes it)`}\n`,
  );
  return EXIT_CODES.success;
}
