import { dirname } from 'node:path';
import type {
  Agent,
  AgentOptions,
  AgentSessionOptions,
  DependencyContainer,
  Executor,
  LLMProvider,
  Plugin,
  Tool,
} from '@agentloop/core';
import {
  createContainer,
  createSessionContainer,
  disposeContainer,
  provideTools,
  resolveAgent,
  TOKENS,
} from '@agentloop/core';
import { preloadWorkspaceTools } from '@agentloop/workspace-tools';
import { ToolSafety } from '../approval/tool-safety.js';
import type { ProviderSpec, SessionSettings } from '../config/index.js';
// Not the folder's index: that also exports `agentloop mcp list`, which imports @agentloop/mcp and the MCP
// SDK at the top, and a session without MCP servers must not wait for them at start-up.
import { mcpSessionPlugins } from '../mcp/mcp-session-plugin.js';
import type { ModelSwitcher, ProviderFactory } from '../provider/index.js';
import {
  configuredModelReferences,
  createModelSwitcher,
  createProviderFactory,
  openSessionRecorder,
  requestLabel,
  samplingModels,
  unknownModelNote,
} from '../provider/index.js';
import type { ErrorContext, TerminalOutput } from '../render/index.js';
import { createStyle, terminalFeatures } from '../render/index.js';
import { type DiscoveredSkills, discoverSkills, rememberSkills } from '../skills/index.js';
import { configuredAgentTools, followingApproval } from '../subagents/index.js';
import type { VerboseLog } from '../verbose/index.js';
import { createSdkLogger, LoggingProvider } from '../verbose/index.js';
import { createVerboseLog } from './create-verbose-log.js';
import { loadPluginModules } from './load-plugin-modules.js';
import { sessionSecrets } from './session-secrets.js';
import { type EditorTools, workspaceTools } from './workspace-tools.js';

/** What the composition root hands the executors. */
export interface ComposedAgent {
  /** The agent, built in the background: the provider SDK loads while the prompt is already shown. */
  agent: Promise<Agent>;
  /**
   * The composition's container: the provider, the agent options, the plugins and their tools, and the
   * executor under `TOKENS.Executor`.
   */
  container: Promise<DependencyContainer>;
  /**
   * The session's container, a child of `container`, which the agent was resolved from: its memory, token
   * counter, prompt builder and the collaborators plugins registered are the session's own.
   */
  sessionContainer: Promise<DependencyContainer>;
  /**
   * What the container holds under `TOKENS.Executor`: the executor given in the options, or a plugin's
   * that replaced it; undefined when neither registered one.
   */
  executor: Promise<Executor | undefined>;
  /**
   * Releases what the plugins hold (their `dispose` hooks, through `disposeContainer`), once, however
   * often it is called: later calls get the first one's promise. Waits for a container still being built;
   * one that failed to build has nothing to release (core disposed what it had started). Rejects with
   * core's `plugin_dispose_failed` when a hook fails.
   */
  dispose(): Promise<void>;
  verboseLog: VerboseLog;
  switchModel: ModelSwitcher;
  /** Names the provider in use in error lines; follows `/model` switches. */
  errorContext: ErrorContext;
  /** The session's approval mode and rules and run_command's sandbox, checked while the agent is built. */
  toolSafety: ToolSafety;
}

/** Where the composition writes and what it reads; injectable for tests. */
export interface ComposeOptions {
  errorOutput?: TerminalOutput;
  environment?: Record<string, string | undefined>;
  createProvider?: ProviderFactory;
  /** The verbose log to use (default: a new one on `errorOutput`). */
  verboseLog?: VerboseLog;
  /** An error context to keep up to date with `/model` switches (default: a new one). */
  errorContext?: ErrorContext;
  /**
   * The executor to register under `TOKENS.Executor`, before the plugins (which may resolve it). The
   * interactive CLI creates its CliExecutor first, so that its prompt is drawn while this composition
   * loads @agentloop/core and the provider SDK.
   */
  executor?: Executor;
  /** The approvals and sandbox (default: new ones from the settings); the session shares them with /approval. */
  toolSafety?: ToolSafety;
  /** An editor's buffers and terminals for the workspace tools (`agentloop acp`); default: the disk, child processes. */
  editorTools?: EditorTools;
  /** Where the agent keeps its session (the store and the id to start or resume); default: nothing is kept. */
  session?: Promise<AgentSessionOptions | undefined>;
}

/**
 * The composition root: settings → provider (wrapped in the verbose logger, its SDK logging through the
 * sanitiser, and recorded to a cassette with `--record`) → container with the workspace tools and the
 * configured plugins → agent.
 */
export function composeAgent(settings: SessionSettings, options: ComposeOptions = {}): ComposedAgent {
  const environment = options.environment ?? process.env;
  const errorOutput = options.errorOutput ?? process.stderr;
  const verboseLog = options.verboseLog ?? createVerboseLog(settings, errorOutput, environment);
  // The SDKs would log to `console`, raw; their lines go through the sanitiser and the redactor instead.
  const sdkLogger = createSdkLogger({
    errorOutput,
    style: createStyle(terminalFeatures(errorOutput, environment).color),
    verboseLog,
  });
  const createProvider =
    options.createProvider ??
    createProviderFactory({ sdkLogger, ...(settings.retry ? { retry: settings.retry } : {}) });
  // With --record, every provider of the session (the first, and each one /model switches to) records into
  // the one cassette.
  const recorder = settings.recordFile
    ? openSessionRecorder(settings.recordFile, sessionSecrets(settings, environment))
    : undefined;
  const wrap = async (provider: LLMProvider, spec: ProviderSpec): Promise<LLMProvider> => {
    verboseLog.write(() => {
      const note = unknownModelNote(provider.capabilities);
      return note === undefined ? [] : [note];
    });
    return new LoggingProvider(recorder ? (await recorder).record(provider) : provider, verboseLog, {
      label: requestLabel(spec),
    });
  };
  const errorContext: ErrorContext = options.errorContext ?? {};
  const describe = (spec: ProviderSpec) => {
    errorContext.providerName = spec.name;
    errorContext.baseURL = spec.baseURL;
    errorContext.apiKeySource = spec.apiKeySource;
    errorContext.model = spec.model;
  };
  describe(settings.provider);
  let current = settings.provider;
  const switchModel = createModelSwitcher({
    config: settings.config,
    environment,
    userConfigFile: settings.userConfigFile,
    current: () => current,
    createProvider,
    wrap,
    onSwitch: (spec) => {
      current = spec;
      describe(spec);
    },
  });
  // An agent of `[agents.NAME]` with a model of its own: built as /model would, but the session's stays.
  const switchAgentModel = createModelSwitcher({
    config: settings.config,
    environment,
    userConfigFile: settings.userConfigFile,
    current: () => settings.provider,
    createProvider,
    wrap,
  });
  // Taken out of `options` so that the closure below keeps its type narrowed, without a cast.
  const cliExecutor = options.executor;
  const toolSafety = options.toolSafety ?? new ToolSafety(settings);
  let builtinTools: Tool[] | undefined;
  let skills: DiscoveredSkills | undefined;
  const container = (async () => {
    const [provider, plugins, mcp, , session] = await Promise.all([
      createProvider(settings.provider),
      loadPluginModules(settings.plugins, settings.config.projectTrusted ? settings.cwd : undefined),
      mcpSessionPlugins(settings.config.mcp_servers, environment, settings.cwd),
      // run_command's sandbox and the approval policy depend on whether the sandbox can run here.
      settings.builtinTools ? toolSafety.probe() : undefined,
      options.session,
    ]);
    const builtin: Plugin[] = settings.builtinTools
      ? [
          {
            name: 'agentloop-cli-tools',
            register: (container) => {
              // Chosen once, by the session's first model: a tool list that changed with /model would
              // leave calls in the history to a tool the model is no longer offered.
              builtinTools = workspaceTools(settings, {
                sandbox: toolSafety.commandSandbox(),
                editor: options.editorTools,
                editTool: provider.capabilities.editTool,
              });
              provideTools(container, builtinTools);
            },
          },
        ]
      : [];
    // The user's own skills folder sits beside the user's configuration file.
    skills = discoverSkills({
      projectDir: settings.projectDir,
      config: settings.config,
      userConfigDir: dirname(settings.userConfigFile),
    });
    const executor: Plugin[] = cliExecutor
      ? [
          {
            name: 'agentloop-cli-executor',
            register: (scope) => scope.register(TOKENS.Executor, () => cliExecutor),
          },
        ]
      : [];
    const sessionProvider = await wrap(provider, settings.provider);
    const agentOptions = {
      ...(settings.maxIterations === undefined ? {} : { maxIterations: settings.maxIterations }),
      ...(settings.onMaxIterations === undefined ? {} : { onMaxIterations: settings.onMaxIterations }),
      ...(settings.maxParallelTools === undefined ? {} : { maxParallelTools: settings.maxParallelTools }),
      ...(settings.parallelToolCalls === undefined ? {} : { parallelToolCalls: settings.parallelToolCalls }),
      ...(settings.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: settings.toolTimeoutMs }),
      ...(settings.compaction === undefined ? {} : { compaction: settings.compaction }),
      ...(settings.contextWindow === undefined ? {} : { contextWindow: settings.contextWindow }),
      ...(settings.protocol === undefined ? {} : { toolProtocol: settings.protocol }),
      workspace: settings.cwd,
      approval: toolSafety.policy(),
      // An MCP server's sampling request runs on the configured model its hints name, else the session's.
      samplingProvider: samplingModels(configuredModelReferences(settings), switchAgentModel),
      instructions: {
        projectDir: settings.projectDir,
        environment: settings.builtinTools
          ? toolSafety.environment(settings.cwd)
          : { cwd: settings.cwd, approvalPolicy: toolSafety.mode },
      },
      ...(settings.systemPrompt ? { systemPrompt: settings.systemPrompt } : {}),
    };
    return createContainer({
      provider: sessionProvider,
      agentOptions: {
        ...agentOptions,
        ...(session ? { session } : {}),
        ...(skills.skills.length > 0 ? { skills: skills.skills } : {}),
      },
      plugins: [
        ...executor,
        ...builtin,
        ...(await subagentPlugins(
          settings,
          sessionProvider,
          // The session's mode as /approval leaves it, not as it started.
          { ...agentOptions, approval: followingApproval(() => toolSafety.policy()) },
          () => builtinTools,
          switchAgentModel,
        )),
        ...mcp,
        ...plugins,
      ],
    });
  })();
  // One session per composition here; a child container keeps what is the session's apart from what is the
  // composition's, as an executor serving several sessions from one composition does.
  const sessionContainer = container.then(createSessionContainer);
  const agent = sessionContainer.then(resolveAgent).then((resolved) => {
    preloadToolsAtFirstRun(resolved, builtinTools);
    if (skills) rememberSkills(resolved, skills);
    return resolved;
  });
  const executor = container.then((scope) =>
    scope.isRegistered(TOKENS.Executor, true) ? scope.resolve(TOKENS.Executor) : undefined,
  );
  executor.catch(() => undefined); // The failure is the agent's to report.
  let disposed: Promise<void> | undefined;
  const dispose = () => {
    disposed ??= container.then(
      async (scope) => {
        try {
          await disposeContainer(await sessionContainer);
        } finally {
          await disposeContainer(scope);
        }
      },
      () => undefined,
    );
    return disposed;
  };
  return { agent, container, sessionContainer, executor, dispose, verboseLog, switchModel, errorContext, toolSafety };
}

/**
 * The `[agents.NAME]` tables, as a plugin that registers their tools after the built-in tools (which they
 * take theirs from); none without the tables, so that a session without them loads nothing more.
 */
async function subagentPlugins(
  settings: SessionSettings,
  provider: LLMProvider,
  agentOptions: AgentOptions,
  builtinTools: () => readonly Tool[] | undefined,
  switchModel: ModelSwitcher,
): Promise<Plugin[]> {
  if (Object.keys(settings.config.agents ?? {}).length === 0) return [];
  // Built before the container, whose registration is synchronous; the built-in tools are made then.
  const providers = new Map<string, LLMProvider>();
  for (const entry of Object.values(settings.config.agents ?? {})) {
    if (entry.model !== undefined && !providers.has(entry.model)) {
      providers.set(entry.model, (await switchModel(entry.model)).provider);
    }
  }
  return [
    {
      name: 'agentloop-cli-agents',
      register: (container) =>
        provideTools(
          container,
          configuredAgentTools({
            config: settings.config,
            provider,
            providerFor: (model) => providers.get(model) as LLMProvider,
            builtinTools: builtinTools(),
            agentOptions,
          }),
        ),
    },
  ];
}

/**
 * The workspace tools load their libraries (zod and the argument schemas, picomatch, ignore, re2js, diff)
 * on their first call, which made it cost several hundred milliseconds more than later ones, shown on the
 * tool's line. Loaded when the first run starts, they load while its first model request is in flight,
 * a wait the user has anyway; loading them at start-up would delay the prompt instead.
 */
function preloadToolsAtFirstRun(agent: Agent, tools: readonly Tool[] | undefined): void {
  if (!tools) return;
  agent.once('loop-start', () => void preloadWorkspaceTools(tools));
}
