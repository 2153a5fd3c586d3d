// @agentloop/executor-cli: the CLI executor and the pieces the `agentloop` command is built from.
// An app that builds its own agent needs only `new CliExecutor(agent).run()`; the rest is for apps that
// build a command of their own.

export type {
  ApprovalChoiceView,
  ApprovalControl,
  ApprovalPrompter,
  ApprovalScreen,
  ChangePreviewOptions,
  CommandConfinement,
} from './approval/index.js';
export type { ComposedAgent, ComposeOptions } from './cli/index.js';
export { composeAgent, main } from './cli/index.js';
export type {
  CliFlags,
  ConfigFile,
  LoadedConfig,
  ProviderSpec,
  ProviderType,
  SessionSettings,
} from './config/index.js';
export {
  CONFIG_TEMPLATE,
  ConfigError,
  loadConfig,
  NoProviderError,
  resolveProviderSpec,
  resolveSessionSettings,
} from './config/index.js';
export type { ModelSwitcher, ProviderFactory } from './provider/index.js';
export { createModelSwitcher, createProvider } from './provider/index.js';
export type { EventRendererOptions, ResultRenderOptions, TerminalOutput } from './render/index.js';
export { EventRenderer, JsonLinesRenderer, renderResult, serializeEvent } from './render/index.js';
export type { CliExecutorOptions, QuestionPrompter, RunOnceOptions, TerminalInput } from './session/index.js';
export { CliExecutor, EXIT_CODES, exitCodeFor, runOnce } from './session/index.js';
export type { SlashCommand, SlashContext } from './slash/index.js';
export { builtinSlashCommands } from './slash/index.js';
export { LoggingProvider, VerboseLog } from './verbose/index.js';
