import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ApprovalMode, CompactionOption, OnMaxIterations, ToolProtocolOption } from '@agentloop/core';
import type { SandboxMode } from '@agentloop/workspace-tools';
import { CliError } from '../errors/index.js';
import type { CompactionConfig } from './compaction-schema.js';
import { userConfigPath } from './config-paths.js';
import type { LoadedConfig } from './load-config.js';
import { loadConfig } from './load-config.js';
import { splitModelReference } from './model-reference.js';
import { NoProviderError } from './no-provider-error.js';
import type { ProviderSpec } from './provider-spec.js';
import { resolveProviderSpec } from './provider-spec.js';
import { isProviderType } from './provider-types.js';
import { type RetryOverrides, retryOverrides } from './retry-overrides.js';
import type { ToolSafetySettings } from './tool-safety-config.js';
import { resolveToolSafety } from './tool-safety-config.js';

/** The command-line options that override configuration. */
export interface CliFlags {
  provider?: string;
  model?: string;
  baseUrl?: string;
  protocol?: ToolProtocolOption;
  maxIterations?: number;
  onMaxIterations?: OnMaxIterations;
  system?: string;
  cwd?: string;
  verbose?: boolean;
  /** `--approval`: the approval mode. */
  approval?: ApprovalMode;
  /** `--sandbox`: run_command's sandbox mode. */
  sandbox?: SandboxMode;
  /** A cassette file to record the session's model calls to (`--record`). */
  record?: string;
  /** `--continue`: resume the last session of the working directory. */
  continue?: boolean;
  /** `--resume [id]`: resume a session by id (or the start of one), or pick one (true). */
  resume?: string | true;
}

/** Everything a session is built from, after flags, configuration files and environment are merged. */
export interface SessionSettings extends ToolSafetySettings {
  /** The working directory: the workspace tools see and where the project configuration is looked for. */
  cwd: string;
  /**
   * The project's root, whose `AGENTS.md` and `.agentloop/system_prompt.md` go into the system prompt:
   * the directory holding the project configuration, or the working directory when there is none.
   */
  projectDir: string;
  provider: ProviderSpec;
  /** How tools reach the model (`--protocol`, `protocol`); absent: the agent's default (`auto`). */
  protocol?: ToolProtocolOption;
  /** Model calls per task (`--max-iterations`, `max_iterations`); absent: the agent's default. */
  maxIterations?: number;
  /** What the last call before `maxIterations` does (`wrap-up` or `stop`); absent: the agent's default. */
  onMaxIterations?: OnMaxIterations;
  /** The most tool calls of one response running at once; absent: the agent's default. */
  maxParallelTools?: number;
  /** false: one tool call per response, run in order; absent: the agent's default (parallel). */
  parallelToolCalls?: boolean;
  /** How long a tool call may run, in milliseconds (0: no limit); absent: the agent's default. */
  toolTimeoutMs?: number;
  /** `[retry]`: the providers' retry policy, the keys the configuration sets; absent: the providers' default. */
  retry?: RetryOverrides;
  /** `[compaction]`: false (never on its own) or the threshold; absent: the agent's default (0.8). */
  compaction?: CompactionOption;
  /** `[compaction] context_window`: the model's window in tokens; absent: the model table's. */
  contextWindow?: number;
  systemPrompt?: string;
  verbose: boolean;
  /** The cassette every model call is recorded to (`--record`), as an absolute path; absent: none. */
  recordFile?: string;
  builtinTools: boolean;
  /** Plugin modules to load: absolute paths or package names. */
  plugins: string[];
  /** The merged configuration, kept for `/model` switches. */
  config: LoadedConfig;
  /** The user's configuration file (it may not exist). */
  userConfigFile: string;
}

/** Where settings come from besides the flags; injectable for tests. */
export interface SettingsSources {
  environment?: Record<string, string | undefined>;
  userConfigFile?: string;
  cwd?: string;
}

/**
 * Resolves a session's settings: flags win over the project configuration, which wins over the user's.
 * Rejects with ConfigError for an invalid file and NoProviderError when no provider can be chosen.
 */
export async function resolveSessionSettings(flags: CliFlags, sources: SettingsSources = {}): Promise<SessionSettings> {
  const environment = sources.environment ?? process.env;
  const cwd = resolve(sources.cwd ?? process.cwd(), flags.cwd ?? '.');
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
    throw new CliError(`--cwd ${flags.cwd}: there is no directory ${cwd}.`, { code: 'invalid_cwd' });
  const userConfigFile = sources.userConfigFile ?? userConfigPath();
  const config = await loadConfig({ cwd, userFile: userConfigFile });
  checkProviderFlags(flags, config);
  const projectConfig = config.projectFile;
  const provider = resolveProviderSpec(
    { provider: flags.provider, model: flags.model, baseURL: flags.baseUrl },
    config,
    environment,
    userConfigFile,
  );
  const systemPrompt = flags.system ?? config.system_prompt;
  // Left out when not set, here and below, so that the agent's defaults apply: core holds the one default
  // of each loop setting.
  const protocol = flags.protocol ?? config.protocol;
  const maxIterations = flags.maxIterations ?? config.max_iterations;
  const onMaxIterations = flags.onMaxIterations ?? config.on_max_iterations;
  const retry = retryOverrides(config.retry);
  return {
    cwd,
    projectDir: projectConfig ? dirname(dirname(projectConfig)) : cwd,
    provider,
    ...(protocol === undefined ? {} : { protocol }),
    ...(maxIterations === undefined ? {} : { maxIterations }),
    ...(onMaxIterations === undefined ? {} : { onMaxIterations }),
    ...(config.max_parallel_tools === undefined ? {} : { maxParallelTools: config.max_parallel_tools }),
    ...(config.parallel_tool_calls === undefined ? {} : { parallelToolCalls: config.parallel_tool_calls }),
    ...(config.tool_timeout === undefined ? {} : { toolTimeoutMs: config.tool_timeout * 1000 }),
    ...compactionSettings(config.compaction),
    ...(retry === undefined ? {} : { retry }),
    ...(systemPrompt ? { systemPrompt } : {}),
    verbose: flags.verbose ?? config.verbose ?? false,
    // Relative to where the command was typed, as a shell's `> file` is, not to --cwd.
    ...(flags.record === undefined ? {} : { recordFile: resolve(sources.cwd ?? process.cwd(), flags.record) }),
    builtinTools: config.builtin_tools ?? true,
    ...resolveToolSafety(flags, config),
    plugins: config.plugins,
    config,
    userConfigFile,
  };
}

/** The agent's `compaction` and `contextWindow` options from the `[compaction]` table, each left out when unset. */
export function compactionSettings(
  config: CompactionConfig | undefined,
): Pick<SessionSettings, 'compaction' | 'contextWindow'> {
  if (!config) return {};
  // enabled = false wins over a threshold: a project may turn off what the user's file tuned.
  const compaction: CompactionOption | undefined =
    config.enabled === false ? false : config.threshold === undefined ? undefined : { threshold: config.threshold };
  return {
    ...(compaction === undefined ? {} : { compaction }),
    ...(config.context_window === undefined ? {} : { contextWindow: config.context_window }),
  };
}

// `--provider openai --model anthropic:claude-sonnet-4-6` names two providers; either reading is a guess.
function checkProviderFlags(flags: CliFlags, config: LoadedConfig): void {
  if (flags.provider === undefined) return;
  const known = (name: string) => isProviderType(name) || name in config.providers;
  const modelProvider = splitModelReference(flags.model, known).provider;
  if (modelProvider === undefined || modelProvider === flags.provider) return;
  throw new NoProviderError(
    `--provider ${flags.provider} and --model ${flags.model} name different providers; give one of them (--model without the "${modelProvider}:" prefix, or no --provider).`,
  );
}
