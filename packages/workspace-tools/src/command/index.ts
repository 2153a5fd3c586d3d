export { COMMAND_ENVIRONMENT, SECRET_VARIABLE } from './command-environment.js';
export type { CommandRunner, CommandRunOutcome, CommandRunRequest } from './command-runner.js';
export type { RunCommandToolOptions } from './run-command-tool.js';
export {
  createRunCommandTool,
  RUN_COMMAND_MAX_OUTPUT_BYTES,
  RUN_COMMAND_MAX_TIMEOUT_MS,
  RUN_COMMAND_TIMEOUT_MS,
} from './run-command-tool.js';
export type { SandboxMode, SandboxOptions, SandboxStatus } from './sandbox/index.js';
export { HIDDEN_HOME_PATHS, SandboxUnavailableError, sandboxStatus } from './sandbox/index.js';
