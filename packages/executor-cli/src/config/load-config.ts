import { readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import type { ProjectSearchOptions } from './config-paths.js';
import { findProjectConfig, userConfigPath } from './config-paths.js';
import type { ConfigFile, ProviderEntry } from './config-schema.js';
import { checkProjectMcpServers, type LoadedMcpServers, mergeMcpServers } from './mcp-servers-config.js';
import { mergeProviderEntry } from './merge-provider-entry.js';
import { splitModelReference } from './model-reference.js';
import { isProviderType, PROVIDER_TYPES } from './provider-types.js';
import { mergeSkillsConfig } from './skills-config.js';
import type { LoadedSkillsConfig } from './skills-schema.js';
import { checkProjectToolSafety, mergeToolSafety } from './tool-safety-config.js';

/** The configuration of a session: the user's file and the project's merged, the project's winning. */
export interface LoadedConfig extends Omit<ConfigFile, 'plugins' | 'providers' | 'mcp_servers' | 'skills'> {
  /** The `[skills]` tables of both files, merged; the project's folders are marked, since they need trust. */
  skills?: LoadedSkillsConfig;
  /** The MCP servers of both files, each with the file it came from; a project's only when trusted. */
  mcp_servers?: LoadedMcpServers;
  /** Plugin specifiers, paths made absolute against the file that named them. */
  plugins: string[];
  /** Provider tables by name, merged key by key; one a project re-points keeps no credential of the user's. */
  providers: Record<string, ProviderEntry>;
  /** The files that were read, user file first. */
  files: string[];
  /** The project file that was read, when there is one. */
  projectFile?: string;
  /** Whether the user's `trusted_projects` lists the project: only then is code looked up in the project. */
  projectTrusted?: boolean;
  /**
   * Each file's settings as written, user file first. The merged `model` cannot say which provider it was
   * written for nor whether a file above overrides it; the model is chosen file by file (see configuredModel).
   */
  layers?: ConfigLayer[];
}

/** One configuration file's settings, as it wrote them. */
export interface ConfigLayer {
  file: string;
  settings: ConfigFile;
}

/** Where to look for configuration files. */
export interface ConfigLocations {
  /** The user's file (default: `config.toml` in the user config directory). */
  userFile?: string;
  /** The directory to search upwards from for `.agentloop/config.toml`. */
  cwd: string;
  /** How the project file is searched for (tests set the home directory and user id). */
  search?: ProjectSearchOptions;
}

/**
 * Reads the user's and the project's configuration files (each optional) and merges them.
 * Rejects with a ConfigError naming the file, the key and the problem when a file cannot be read, is not
 * valid TOML, or does not match the schema; when a provider table, merged, has no type its name does not
 * give, or a file's `provider` and `model` name different providers; and when a project file sets what only the user may: a base
 * URL or key variable for a provider without its own key (it would send the user's key elsewhere),
 * `trusted_projects`, `tools.allow` (it would open the deny-list of secret files), `serve.host`,
 * `serve.token_env_var` or `serve.allowed_origins` (they decide who reaches the agent), or plugins in a project
 * the user has not trusted (they run code), and when an untrusted project loosens approvals or the
 * sandbox (see checkProjectToolSafety). The `tools.deny` lists of both files add up; so do the approval
 * rules, the project's first. The `[compaction]`, `[retry]` and `[serve]` tables merge key by key (a
 * project's `[serve]` may set the port only, see checkProjectConfig); so do provider tables, except that
 * one the project re-points (another base URL or vendor) takes none of the user's credentials (see
 * mergeProviderEntry). An MCP server table of the project replaces the user's of the same name whole.
 */
export async function loadConfig(locations: ConfigLocations): Promise<LoadedConfig> {
  const userFile = locations.userFile ?? userConfigPath();
  const projectFile = findProjectConfig(locations.cwd, locations.search);
  const merged: LoadedConfig = { plugins: [], providers: {}, files: [], layers: [] };
  const user = await readConfigFile(userFile);
  if (user) merged.files.push(userFile);
  const project = projectFile ? await readConfigFile(projectFile) : undefined;
  if (projectFile && project) {
    merged.files.push(projectFile);
    merged.projectFile = projectFile;
    const trusted = isTrusted(dirname(dirname(projectFile)), user?.trusted_projects ?? []);
    if (trusted) merged.projectTrusted = true;
    checkProjectConfig(project, projectFile, trusted);
    checkProjectMcpServers(project, projectFile, trusted, dirname(dirname(projectFile)));
    checkProjectToolSafety(project, user, projectFile, trusted);
  }
  for (const [file, config] of [
    [userFile, user],
    [projectFile, project],
  ] as const) {
    if (!file || !config) continue;
    merged.layers?.push({ file, settings: config });
    const {
      plugins = [],
      providers = {},
      tools: _tools,
      mcp_servers: _mcpServers,
      approval: _approval,
      sandbox: _sandbox,
      compaction,
      retry,
      serve,
      skills: _skills,
      models,
      agents,
      ...settings
    } = config;
    Object.assign(merged, settings);
    // By name: a project adds its agents to the user's, and its table of a name replaces the user's whole.
    if (agents) merged.agents = { ...merged.agents, ...agents };
    // Key by key: a project may change the threshold and keep the user's context_window for a model.
    if (compaction) merged.compaction = { ...merged.compaction, ...compaction };
    if (retry) merged.retry = { ...merged.retry, ...retry };
    // Key by key: a project may choose its port; the rest is the user's alone (checkProjectConfig).
    if (serve) merged.serve = { ...merged.serve, ...serve };
    // Model by model and key by key: a project may set a model's edit tool and keep the user's prices.
    for (const [name, entry] of Object.entries(models ?? {})) {
      merged.models = { ...merged.models, [name]: { ...merged.models?.[name], ...entry } };
    }
    merged.plugins.push(...plugins.map((plugin) => resolvePluginSpecifier(plugin, dirname(file))));
    for (const [name, entry] of Object.entries(providers))
      merged.providers[name] = mergeProviderEntry(name, merged.providers[name], entry);
  }
  if (user?.trusted_projects) merged.trusted_projects = user.trusted_projects;
  const mcpServers = mergeMcpServers([
    [userFile, user],
    [projectFile, project],
  ]);
  if (Object.keys(mcpServers).length > 0) merged.mcp_servers = mcpServers;
  const skills = mergeSkillsConfig([
    [userFile, user, false],
    [projectFile, project, true],
  ]);
  if (skills) merged.skills = skills;
  checkProviderTypes(merged);
  chooseProvider(merged);
  // Both files add to the deny-list; only the user's may take files off it.
  const deny = [...(user?.tools?.deny ?? []), ...(project?.tools?.deny ?? [])];
  const allow = user?.tools?.allow ?? [];
  if (deny.length > 0 || allow.length > 0) merged.tools = { deny, allow };
  Object.assign(merged, mergeToolSafety(user, project));
  return merged;
}

/**
 * Requires a `type` of each merged provider table whose name is not a kind. It is checked once the files
 * are merged, since a project may change one field of a table the user file defines and types; the error
 * names the first file that writes the table.
 */
function checkProviderTypes(merged: LoadedConfig): void {
  for (const [name, entry] of Object.entries(merged.providers)) {
    if (entry.type !== undefined || isProviderType(name)) continue;
    const file = merged.layers?.find((layer) => layer.settings.providers?.[name] !== undefined)?.file ?? '';
    throw new ConfigError({
      file,
      key: `providers.${name}.type`,
      problem: `is required: "${name}" is not a provider kind, so say which it is (${PROVIDER_TYPES.join(', ')})`,
    });
  }
}

/**
 * Sets the merged `provider` to the one the nearest file chooses, by `provider` or by the prefix of its
 * `model` (`model = "openai:gpt-5"` in the project file wins over `provider = "anthropic"` in the user's).
 * A file whose `provider` and `model` name different providers is an error: which one it meant is a guess.
 */
function chooseProvider(merged: LoadedConfig): void {
  const known = (name: string) => isProviderType(name) || name in merged.providers;
  let chosen: string | undefined;
  for (const { file, settings } of merged.layers ?? []) {
    const modelProvider = splitModelReference(settings.model, known).provider;
    if (settings.provider !== undefined && modelProvider !== undefined && modelProvider !== settings.provider) {
      throw new ConfigError({
        file,
        key: 'model',
        problem: `is for the provider "${modelProvider}", but provider = "${settings.provider}" in the same file; name one provider (drop the "${modelProvider}:" prefix, or the provider key)`,
      });
    }
    chosen = settings.provider ?? modelProvider ?? chosen;
  }
  if (chosen !== undefined) merged.provider = chosen;
}

/** Reads and validates one file; undefined when it does not exist. */
export async function readConfigFile(file: string): Promise<ConfigFile | undefined> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError({ file, problem: `cannot be read (${(error as Error).message})`, cause: error });
  }
  // The TOML parser and zod load only when there is a file to read: most starts have none, and zod alone
  // takes about a fifth of the time to the prompt.
  const { parseConfig } = await import('./parse-config.js');
  return parseConfig(text, file);
}

// A project file comes with the code the user is looking at, not from the user: it must not decide where
// the user's key goes, nor run code, unless the user said so in their own file.
function checkProjectConfig(config: ConfigFile, file: string, trusted: boolean): void {
  if (config.trusted_projects !== undefined) {
    throw new ConfigError({
      file,
      key: 'trusted_projects',
      problem: 'can be set only in the user configuration (`agentloop config path` shows where it is)',
    });
  }
  for (const [name, entry] of Object.entries(config.providers ?? {})) {
    if (entry.api_key !== undefined) continue;
    const key = entry.base_url !== undefined ? 'base_url' : entry.api_key_env !== undefined ? 'api_key_env' : undefined;
    if (key === undefined) continue;
    throw new ConfigError({
      file,
      key: `providers.${name}.${key}`,
      problem: `cannot be set in a project configuration without an api_key of its own there, since it would send your API key where the project chooses; set it in the user configuration (\`agentloop config path\` shows where it is) or pass --base-url`,
    });
  }
  if (config.sessions?.directory !== undefined) {
    throw new ConfigError({
      file,
      key: 'sessions.directory',
      problem:
        'can be set only in the user configuration, since it decides where your conversations are written (`agentloop config path` shows where it is)',
    });
  }
  if (config.sessions?.url_env_var !== undefined || config.sessions?.store === 'postgres') {
    throw new ConfigError({
      file,
      key: config.sessions.url_env_var !== undefined ? 'sessions.url_env_var' : 'sessions.store',
      problem:
        'can be set only in the user configuration, since store = "postgres" writes your conversations into the database your environment names (`agentloop config path` shows where it is)',
    });
  }
  const serveKey = (['host', 'token_env_var', 'allowed_origins'] as const).find(
    (key) => config.serve?.[key] !== undefined,
  );
  if (serveKey !== undefined) {
    throw new ConfigError({
      file,
      key: `serve.${serveKey}`,
      problem:
        'can be set only in the user configuration, since it decides who may reach the agent and run your tools (`agentloop config path` shows where it is)',
    });
  }
  if (config.tools?.allow !== undefined) {
    throw new ConfigError({
      file,
      key: 'tools.allow',
      problem:
        'can be set only in the user configuration, since it would let the agent read files that hold your secrets (`agentloop config path` shows where it is)',
    });
  }
  if ((config.plugins?.length ?? 0) > 0 && !trusted) {
    const project = dirname(dirname(file));
    throw new ConfigError({
      file,
      key: 'plugins',
      problem: `loads code from the project, which you have not trusted; to allow it, add trusted_projects = [${JSON.stringify(project)}] to the user configuration (\`agentloop config path\` shows where it is)`,
    });
  }
}

/** Whether `trusted_projects` (the user's) lists this project directory, `~/` and links resolved. */
export function isTrusted(projectDirectory: string, trustedProjects: readonly string[]): boolean {
  const project = canonical(projectDirectory);
  return trustedProjects.some((entry) => canonical(expandHome(entry)) === project);
}

function expandHome(path: string): string {
  if (path === '~') return homedir();
  return path.startsWith('~/') ? join(homedir(), path.slice(2)) : path;
}

function canonical(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

// Plugins named by path are found relative to the file that names them, as tsconfig `extends` is; package
// names stay as they are.
function resolvePluginSpecifier(specifier: string, directory: string): string {
  if (specifier.startsWith('.') || isAbsolute(specifier)) return resolve(directory, specifier);
  return specifier;
}
