import { z } from 'zod';

import { agentsSchema } from './agents-schema.js';
import { compactionSchema } from './compaction-schema.js';
import { mcpServersSchema } from './mcp-servers-schema.js';
import { modelsSchema } from './models-schema.js';
import { PROVIDER_TYPES } from './provider-types.js';
import { retrySchema } from './retry-schema.js';
import { serveSchema } from './serve-schema.js';
import { sessionsSchema } from './sessions-schema.js';
import { skillsSchema } from './skills-schema.js';
import { approvalSchema, sandboxSchema } from './tool-safety-schema.js';
import { hasUrlCredentials, urlCredentialsAdvice } from './url-credentials.js';

export type { ProviderType } from './provider-types.js';

const nonEmpty = z.string().trim().min(1, 'must not be empty');

/**
 * The longest `tool_timeout`, in seconds: 24 days. Node's timers hold at most 2**31 - 1 ms (about 24.8
 * days); a longer delay overflows and fires at once (with a warning), which would stop every tool call
 * as soon as it starts.
 */
export const MAX_TOOL_TIMEOUT_SECONDS = 24 * 24 * 60 * 60;

/** One `[providers.<name>]` table. */
export const providerEntrySchema = z.strictObject({
  /** The provider kind; may be left out when the table's name is one (`[providers.anthropic]`). */
  type: z.enum(PROVIDER_TYPES).optional(),
  /** The API key; the environment (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, or `api_key_env`) is the fallback. */
  api_key: nonEmpty.optional(),
  /** The name of the environment variable that holds the API key. */
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
  /** The API's base URL, e.g. `http://localhost:11434/v1` for Ollama; no credentials in it (see `headers`). */
  base_url: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .refine((url) => !hasUrlCredentials(url), `must not have a user name or password in it: ${urlCredentialsAdvice()}`)
    .optional(),
  /**
   * Headers sent with every request, e.g. `{ Authorization = "Basic ..." }` for a server behind basic auth.
   * Their values are redacted from logs and errors like API keys.
   */
  headers: z
    .record(
      z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'header names are HTTP tokens, e.g. Authorization'),
      z.string(),
    )
    .optional(),
  /** The model to use with this provider. */
  model: nonEmpty.optional(),
});

/** The `[tools]` table: what the workspace tools may not read or write. */
export const toolsSchema = z.strictObject({
  /**
   * More files the file tools refuse (and `list_files` marks), beside the default deny-list of secret files:
   * globs relative to the working directory, `**` for any depth (`["secrets/**", "**\/*.sqlite"]`).
   */
  deny: z.array(nonEmpty).optional(),
  /** Files read although the deny-list names them (`[".env.local"]`). Read from the user's file only. */
  allow: z.array(nonEmpty).optional(),
});

/** A provider table as written in a configuration file. */
export type ProviderEntry = z.infer<typeof providerEntrySchema>;

/**
 * A whole configuration file. Unknown keys are errors, so a typo never goes unnoticed. What depends on
 * the other file (a provider table's `type`, which either file may give) is checked once they are merged.
 */
export const configFileSchema = z.strictObject({
  /** The provider to use: a kind or the name of a `[providers.<name>]` table. */
  provider: nonEmpty.optional(),
  /** The model, or `provider:model`. */
  model: nonEmpty.optional(),
  /** How tools reach the model. */
  protocol: z.enum(['auto', 'native', 'xml']).optional(),
  /** Model calls per task before the agent stops. */
  max_iterations: z.int('must be a whole number').positive('must be at least 1').optional(),
  /**
   * What happens at `max_iterations`: `wrap-up` (the default) makes the last call ask the model to finish and
   * say what it did and what remains; `stop` ends after the last call without a word from the model.
   */
  on_max_iterations: z.enum(['wrap-up', 'stop']).optional(),
  /** The most tool calls of one model response that run at once (default 4). */
  max_parallel_tools: z.int('must be a whole number').positive('must be at least 1').optional(),
  /** false: the model is asked for one tool call per response, and the calls of a response run one by one. */
  parallel_tool_calls: z.boolean().optional(),
  /** Seconds a tool call may run before it is stopped and answered with a timeout error; 0 never stops it. */
  tool_timeout: z
    .number('must be a number of seconds')
    .nonnegative('must be 0 or more')
    .max(
      MAX_TOOL_TIMEOUT_SECONDS,
      `must be at most ${MAX_TOOL_TIMEOUT_SECONDS} seconds (24 days), the longest a timer can wait; 0 never stops a tool`,
    )
    .optional(),
  /** Instructions added to the agent's system prompt. */
  system_prompt: z.string().optional(),
  /** Log model requests and responses and tool calls to stderr. */
  verbose: z.boolean().optional(),
  /** Register the workspace tools: read, write, edit, list, search and run_command (default true). */
  builtin_tools: z.boolean().optional(),
  /** What the workspace tools may not read or write. */
  tools: toolsSchema.optional(),
  /** When the agent asks before a tool call runs: the mode and per-tool rules. */
  approval: approvalSchema.optional(),
  /** How run_command confines commands. */
  sandbox: sandboxSchema.optional(),
  /** Plugin modules to load: paths relative to this file, or package names. */
  plugins: z.array(nonEmpty).optional(),
  /** MCP servers by name, whose tools the agent gets as `name__tool` (a project's only when trusted). */
  mcp_servers: mcpServersSchema.optional(),
  /** Where sessions are saved, for `--continue` and `--resume`: `store` and `directory`. */
  sessions: sessionsSchema.optional(),
  /** Where `agentloop serve` listens and who may call it: `port`, `host`, `token_env_var`, `allowed_origins`. */
  serve: serveSchema.optional(),
  /** When the conversation is compacted: `enabled`, `threshold`, and a `context_window` override. */
  compaction: compactionSchema.optional(),
  /** How failed model calls are retried. */
  retry: retrySchema.optional(),
  /** Skills: `enabled`, more `folders`, and `disabled` names (a project's only when trusted). */
  skills: skillsSchema.optional(),
  /** Agents the session's agent may call as tools, by name: `description`, `model`, `system_prompt`, `tools`. */
  agents: agentsSchema.optional(),
  /**
   * Project directories (absolute, `~/` allowed) whose `.agentloop/config.toml` may load plugins. Read
   * from the user's file only.
   */
  trusted_projects: z.array(nonEmpty).optional(),
  /**
   * What agentloop should know about models, by model id or the start of the ids (`[models."qwen3"]`):
   * `context_window`, `input_price` and `output_price`, `parallel_tool_calls`, `edit_tool`.
   */
  models: modelsSchema.optional(),
  /** Provider tables by name. */
  providers: z
    .record(
      z.string().regex(/^[A-Za-z0-9_-]+$/, 'provider names use letters, digits, "_" and "-"'),
      providerEntrySchema,
    )
    .optional(),
});

/** A configuration file's content, validated. */
export type ConfigFile = z.infer<typeof configFileSchema>;
