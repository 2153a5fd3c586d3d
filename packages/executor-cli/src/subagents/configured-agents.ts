import type { AgentOptions, LLMProvider, Tool } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import type { LoadedConfig } from '../config/index.js';
import { ConfigError } from '../config/index.js';

/** What the `[agents.NAME]` tables are built with. */
export interface ConfiguredAgentsOptions {
  config: Pick<LoadedConfig, 'agents' | 'layers' | 'files'>;
  /** The session's provider, for an agent that names no model. */
  provider: LLMProvider;
  /** The provider of an agent's `model` (a model, or `provider:model`), built beforehand as `/model` would. */
  providerFor(model: string): LLMProvider;
  /** The session's built-in tools; undefined with `builtin_tools = false`. */
  builtinTools: readonly Tool[] | undefined;
  /** The session agent's options (limits, approval, workspace, protocol): each agent runs with them. */
  agentOptions: AgentOptions;
}

/**
 * The tools of the configuration's `[agents.NAME]` tables: each an agent with its own model, system prompt
 * and built-in tools, and the session's limits and approval policy, as a tool named NAME (`asTool`).
 * Throws a ConfigError naming the file and key of a tool that is not a built-in one.
 */
export function configuredAgentTools(options: ConfiguredAgentsOptions): Tool[] {
  const { config, agentOptions } = options;
  const tools: Tool[] = [];
  for (const [name, entry] of Object.entries(config.agents ?? {})) {
    const file = fileOf(config, name);
    const agentTools = (entry.tools ?? []).map((toolName, index) =>
      builtinTool(options.builtinTools, toolName, { file, key: `agents.${name}.tools[${index}]` }),
    );
    const provider = entry.model === undefined ? options.provider : options.providerFor(entry.model);
    const { systemPrompt: _sessionPrompt, session: _session, ...shared } = agentOptions;
    const agent = new DefaultAgent(provider, {
      ...shared,
      tools: agentTools,
      ...(entry.system_prompt === undefined ? {} : { systemPrompt: entry.system_prompt }),
    });
    tools.push(agent.asTool({ name, description: entry.description }));
  }
  return tools;
}

function builtinTool(
  builtinTools: readonly Tool[] | undefined,
  name: string,
  where: { file: string; key: string },
): Tool {
  if (!builtinTools) {
    throw new ConfigError({
      ...where,
      problem: `names the built-in tool "${name}", but builtin_tools = false turns the built-in tools off. Remove it, or set builtin_tools = true.`,
    });
  }
  const tool = builtinTools.find((candidate) => candidate.name === name);
  if (tool) return tool;
  const names = builtinTools.map((candidate) => candidate.name).join(', ');
  throw new ConfigError({ ...where, problem: `"${name}" is not a built-in tool. The built-in tools are: ${names}.` });
}

/** The last file that writes the agent's table: its table is the one in use. */
function fileOf(config: ConfiguredAgentsOptions['config'], name: string): string {
  const layers = config.layers ?? [];
  for (let index = layers.length - 1; index >= 0; index--) {
    const layer = layers[index];
    if (layer?.settings.agents?.[name] !== undefined) return layer.file;
  }
  return config.files.at(-1) ?? 'your configuration file';
}
