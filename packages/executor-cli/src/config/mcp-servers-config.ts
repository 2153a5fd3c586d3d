import { dirname, isAbsolute, join } from 'node:path';
import type { McpOAuthConfig, McpServerConfig, McpServersConfig } from '@agentloop/mcp';
import { ConfigError } from './config-error.js';
import type { ConfigFile } from './config-schema.js';
import type { McpServerEntry } from './mcp-servers-schema.js';

/** A merged `[mcp_servers]` table: each entry with the file it came from (for relative paths and errors). */
export type LoadedMcpServers = Record<string, McpServerEntry & { file: string }>;

/**
 * Refuses MCP servers in an untrusted project's file: a stdio server is a program the project would run,
 * and an HTTP one a place the project would send the model's data to, so only the user adds them.
 */
export function checkProjectMcpServers(project: ConfigFile, file: string, trusted: boolean, directory: string): void {
  if (trusted || Object.keys(project.mcp_servers ?? {}).length === 0) return;
  throw new ConfigError({
    file,
    key: 'mcp_servers',
    problem: `starts programs and reaches servers the project chooses, which you have not trusted; to allow it, add trusted_projects = [${JSON.stringify(directory)}] to the user configuration (\`agentloop config path\` shows where it is)`,
  });
}

/** The user's servers, then the (trusted) project's: a project's table replaces the user's of the same name. */
export function mergeMcpServers(layers: readonly [string | undefined, ConfigFile | undefined][]): LoadedMcpServers {
  const merged: LoadedMcpServers = {};
  for (const [file, config] of layers) {
    if (!file || !config) continue;
    for (const [name, entry] of Object.entries(config.mcp_servers ?? {})) merged[name] = { ...entry, file };
  }
  return merged;
}

/**
 * The servers as @agentloop/mcp takes them: seconds to milliseconds, `cwd` relative to its file's folder,
 * headers from the environment. Throws a ConfigError naming the variable a header or token needs and
 * that is not set.
 */
export function toMcpServersConfig(
  servers: LoadedMcpServers,
  environment: Record<string, string | undefined>,
): McpServersConfig {
  const result: Record<string, McpServerConfig> = {};
  for (const [name, entry] of Object.entries(servers)) result[name] = toServerConfig(name, entry, environment);
  return result;
}

function toServerConfig(
  name: string,
  entry: McpServerEntry & { file: string },
  environment: Record<string, string | undefined>,
): McpServerConfig {
  const toolTimeout = entry.tool_timeout ?? entry.tool_timeout_sec;
  const common = {
    ...(entry.enabled === undefined ? {} : { enabled: entry.enabled }),
    ...(toolTimeout === undefined ? {} : { toolTimeoutMs: toolTimeout * 1000 }),
    ...(entry.startup_timeout_sec === undefined ? {} : { startupTimeoutMs: entry.startup_timeout_sec * 1000 }),
    ...(entry.max_resource_bytes === undefined ? {} : { maxResourceBytes: entry.max_resource_bytes }),
    ...(entry.enabled_tools ? { includeTools: entry.enabled_tools } : {}),
    ...(entry.disabled_tools ? { excludeTools: entry.disabled_tools } : {}),
  };
  if (entry.command !== undefined) {
    return {
      command: entry.command,
      ...(entry.args ? { args: entry.args } : {}),
      ...(entry.env ? { env: entry.env } : {}),
      ...(entry.cwd ? { cwd: isAbsolute(entry.cwd) ? entry.cwd : join(dirname(entry.file), entry.cwd) } : {}),
      ...common,
    };
  }
  const variable = (key: string, variableName: string): string => {
    const value = environment[variableName];
    // A disabled server starts nothing and sends nothing: its variables need not be set.
    if (value || entry.enabled === false) return value ?? '';
    throw new ConfigError({
      file: entry.file,
      key: `mcp_servers.${name}.${key}`,
      problem: `names the environment variable ${variableName}, which is not set; set it, or disable the server with enabled = false`,
    });
  };
  const headers: Record<string, string> = { ...(entry.headers ?? entry.http_headers) };
  for (const [header, variableName] of Object.entries(entry.env_http_headers ?? {})) {
    headers[header] = variable(`env_http_headers.${header}`, variableName);
  }
  if (entry.bearer_token_env_var) {
    headers.Authorization = `Bearer ${variable('bearer_token_env_var', entry.bearer_token_env_var)}`;
  }
  // A disabled server logs in nowhere: its secret's variable need not be set.
  const oauth = entry.oauth && entry.enabled !== false ? toOAuthConfig(entry.oauth, entry.file, variable) : undefined;
  return {
    url: entry.url ?? '',
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(oauth ? { oauth } : {}),
    ...common,
  };
}

/** `[mcp_servers.NAME.oauth]` as @agentloop/mcp takes it: the secret read from its variable, the key file's path resolved. */
function toOAuthConfig(
  oauth: NonNullable<McpServerEntry['oauth']>,
  file: string,
  variable: (key: string, variableName: string) => string,
): McpOAuthConfig {
  const keyFile = oauth.private_key_file;
  return {
    ...(oauth.client_id ? { clientId: oauth.client_id } : {}),
    ...(oauth.client_secret_env_var
      ? { clientSecret: variable('oauth.client_secret_env_var', oauth.client_secret_env_var) }
      : {}),
    ...(oauth.scopes ? { scopes: oauth.scopes } : {}),
    ...(oauth.grant ? { grant: oauth.grant } : {}),
    ...(keyFile ? { privateKeyFile: isAbsolute(keyFile) ? keyFile : join(dirname(file), keyFile) } : {}),
    ...(oauth.redirect_port ? { redirectPort: oauth.redirect_port } : {}),
    ...(oauth.client_metadata_url ? { clientMetadataUrl: oauth.client_metadata_url } : {}),
  };
}
