// @agentloop/executor-cli/internal: the pieces the `agentloop` command is built from, for an app that
// builds a command of its own. They change with the command, without notice in the version number; an
// app that embeds the command's session needs only the package's main entry.

export type {
  ApprovalChoiceView,
  ApprovalControl,
  ApprovalPrompter,
  ApprovalScreen,
  ChangePreviewOptions,
  CommandConfinement,
} from '../approval/index.js';
export { main } from '../cli/index.js';
export type { ConfigFile, LoadedConfig, ProviderSpec, ProviderType } from '../config/index.js';
export { CONFIG_TEMPLATE, ConfigError, loadConfig, NoProviderError, resolveProviderSpec } from '../config/index.js';
export type { ModelSwitcher, ProviderFactory } from '../provider/index.js';
export { createModelSwitcher, createProvider } from '../provider/index.js';
export type { EventRendererOptions, ResultRenderOptions, TerminalOutput } from '../render/index.js';
export { EventRenderer, JsonLinesRenderer, renderResult, serializeEvent } from '../render/index.js';
export type { QuestionPrompter, TerminalInput } from '../session/index.js';
export { exitCodeFor } from '../session/index.js';
export type { SlashCommand, SlashContext } from '../slash/index.js';
export { builtinSlashCommands } from '../slash/index.js';
export { LoggingProvider, VerboseLog } from '../verbose/index.js';
