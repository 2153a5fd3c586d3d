// @agentloop/executor-cli: the `agentloop` command, and what an app needs to embed its session. An app
// that builds its own agent runs `new CliExecutor(agent).run()` (or `runOnce` for one task, with the
// statuses of `EXIT_CODES`); an app that builds the agent as the command does calls `composeAgent` with
// the settings `resolveSessionSettings` reads. The pieces the command is built from (renderers, the
// configuration loader, slash commands) are at `@agentloop/executor-cli/internal`, with no promise that
// they stay as they are.

export type { ComposedAgent, ComposeOptions } from './cli/index.js';
export { composeAgent } from './cli/index.js';
export type { CliFlags, SessionSettings } from './config/index.js';
export { resolveSessionSettings } from './config/index.js';
export type { CliExecutorOptions, RunOnceOptions } from './session/index.js';
export { CliExecutor, EXIT_CODES, runOnce } from './session/index.js';
