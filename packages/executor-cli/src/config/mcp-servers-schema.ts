import { z } from 'zod';

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const variableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'header names are HTTP tokens, e.g. Authorization');
/** 24 days: the longest a timer waits (see MAX_TOOL_TIMEOUT_SECONDS). */
const MAX_SECONDS = 24 * 24 * 60 * 60;
const seconds = z
  .number('must be a number of seconds')
  .nonnegative('must be 0 or more')
  .max(MAX_SECONDS, `must be at most ${MAX_SECONDS} seconds (24 days)`);

/**
 * `[mcp_servers.<name>.oauth]`: how to log in where the server wants OAuth. Nothing here is needed for a
 * server that registers clients itself; the secret is named by its environment variable, never written.
 */
const oauthSchema = z
  .strictObject({
    /** A client registered with the authorization server beforehand. */
    client_id: nonEmpty.optional(),
    /** The environment variable that holds that client's secret. */
    client_secret_env_var: variableName.optional(),
    /** Scopes to ask for beside those the server names. */
    scopes: z.array(nonEmpty).optional(),
    /** `authorization_code` (a browser login, the default) or `client_credentials` (a machine alone). */
    grant: z.enum(['authorization_code', 'client_credentials']).optional(),
    /** A PEM private key for private_key_jwt (client credentials), relative to this file's directory. */
    private_key_file: nonEmpty.optional(),
    /** The loopback port of the browser's redirect; default a free one. */
    redirect_port: z.number().int('must be a whole number').min(1).max(65_535, 'must be a port, 1 to 65535').optional(),
    /** The https URL of a client ID metadata document you host. */
    client_metadata_url: z.url({ protocol: /^https$/, error: 'must be an https:// URL' }).optional(),
  })
  .superRefine((oauth, context) => {
    const problem = (message: string) => context.addIssue({ code: 'custom', message });
    if (oauth.grant === 'client_credentials') {
      if (!oauth.client_id) problem('grant = "client_credentials" needs client_id');
      if ((oauth.client_secret_env_var === undefined) === (oauth.private_key_file === undefined)) {
        problem('grant = "client_credentials" needs one of client_secret_env_var and private_key_file');
      }
    } else if (oauth.private_key_file !== undefined) {
      problem('private_key_file is for grant = "client_credentials"');
    }
  });

/**
 * One `[mcp_servers.<name>]` table, in the shape Codex users write (Claude Code's `headers` and the
 * shorter `tool_timeout` are taken too): a stdio server (`command`) or an HTTP one (`url`).
 */
export const mcpServerEntrySchema = z
  .strictObject({
    /** The program to start (stdio). */
    command: nonEmpty.optional(),
    /** Its arguments. */
    args: z.array(z.string()).optional(),
    /** Variables for it, beside HOME, LOGNAME, PATH, SHELL, TERM and USER (nothing else is passed on). */
    env: z.record(variableName, z.string()).optional(),
    /** The directory to start it in, relative to this file's directory; default the working directory. */
    cwd: nonEmpty.optional(),
    /** The server's MCP endpoint (Streamable HTTP, or SSE where that is all it offers). */
    url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    /** Headers sent with every request (Codex: `http_headers`). */
    headers: z.record(headerName, z.string()).optional(),
    http_headers: z.record(headerName, z.string()).optional(),
    /** Headers whose values are read from environment variables: `{ "X-Api-Key" = "DOCS_KEY" }`. */
    env_http_headers: z.record(headerName, variableName).optional(),
    /** An environment variable holding a bearer token, sent as `Authorization: Bearer …`. */
    bearer_token_env_var: variableName.optional(),
    /** How to log in where the server wants OAuth (`agentloop mcp login NAME`). */
    oauth: oauthSchema.optional(),
    /** false leaves the server out. */
    enabled: z.boolean().optional(),
    /** Seconds a call of its tools may run; 0 never stops one (Codex: `tool_timeout_sec`). */
    tool_timeout: seconds.optional(),
    tool_timeout_sec: seconds.optional(),
    /** Seconds its start and handshake may take (default 30). */
    startup_timeout_sec: seconds.positive('must be more than 0').optional(),
    /** The most of one of its resources' text given at once, in bytes (default 65536, read_file's 64 KB). */
    max_resource_bytes: z
      .number('must be a whole number of bytes')
      .int('must be a whole number of bytes')
      .min(1, 'must be 1 or more')
      .max(Number.MAX_SAFE_INTEGER, 'must be a whole number of bytes')
      .optional(),
    /** Only these of its tools (by their names on the server). */
    enabled_tools: z.array(nonEmpty).optional(),
    /** None of these of its tools. */
    disabled_tools: z.array(nonEmpty).optional(),
  })
  .superRefine((entry, context) => {
    const problem = (message: string) => context.addIssue({ code: 'custom', message });
    if ((entry.command === undefined) === (entry.url === undefined)) {
      problem('give "command" (a program to start over stdio) or "url" (an HTTP endpoint), not both and not neither');
    }
    const stdioOnly = (['args', 'env', 'cwd'] as const).filter((key) => entry[key] !== undefined);
    if (entry.url !== undefined && stdioOnly.length > 0) problem(`"${stdioOnly[0]}" is for a server with "command"`);
    const httpOnly = (['headers', 'http_headers', 'env_http_headers', 'bearer_token_env_var', 'oauth'] as const).filter(
      (key) => entry[key] !== undefined,
    );
    if (entry.command !== undefined && httpOnly.length > 0) problem(`"${httpOnly[0]}" is for a server with "url"`);
    if (entry.headers !== undefined && entry.http_headers !== undefined) {
      problem('give "headers" or "http_headers", not both');
    }
    if (entry.tool_timeout !== undefined && entry.tool_timeout_sec !== undefined) {
      problem('give "tool_timeout" or "tool_timeout_sec", not both');
    }
  });

/**
 * The `[mcp_servers]` table: servers by name. A name prefixes its tools' names (`github__create_issue`), so
 * it has no `__`, and it is never `local`, the XML protocol's name for the agent's own tools. (Checked on
 * the table, not the key schema: zod words a key's own failure only as "Invalid key in record".)
 */
export const mcpServersSchema = z.record(z.string(), mcpServerEntrySchema).superRefine((servers, context) => {
  for (const name of Object.keys(servers)) {
    const problem = !/^[A-Za-z0-9_-]{1,40}$/.test(name)
      ? 'server names are 1 to 40 letters, digits, "_" and "-"'
      : name.includes('__')
        ? 'server names must not contain "__" (it separates the server from the tool in tool names)'
        : name === 'local'
          ? '"local" names the agent\'s own tools; pick another server name'
          : undefined;
    if (problem) context.addIssue({ code: 'custom', path: [name], message: problem });
  }
});

/** One `[mcp_servers.<name>]` table as written. */
export type McpServerEntry = z.infer<typeof mcpServerEntrySchema>;
