/**
 * The commented template `agentloop config init` writes. Every setting is commented out, so the file
 * changes nothing until the user edits it; the keys match `configFileSchema`.
 */
export const CONFIG_TEMPLATE = `# agentloop configuration
#
# agentloop reads this file from your user config directory and then .agentloop/config.toml in the
# project (or the nearest directory above it that has one); the project's settings win. Command-line
# options win over both. Remove the leading "#" to use a setting.

# The provider to use: "anthropic", "openai", "openai-responses", "google", or the name of a
# table [providers.<name>] below. Without it, the environment decides, as it does for the agentloop
# library: Anthropic when ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN is set, else the OpenAI-compatible
# server at OPENAI_BASE_URL, else OpenAI when OPENAI_API_KEY is set, else Google Gemini when
# GEMINI_API_KEY (or GOOGLE_API_KEY) is set. ANTHROPIC_MODEL, OPENAI_MODEL and GEMINI_MODEL name the
# model when nothing here or on the command line does.
# provider = "anthropic"

# The model. "provider:model" also works, e.g. "openai:gpt-5-mini". It wins over the model of
# a [providers.<name>] table below.
# model = "claude-sonnet-4-6"

# How tools reach the model: "auto" (native function calling where the model supports it),
# "native", or "xml" (tools described in the prompt, for models without function calling).
# protocol = "auto"

# Model calls per task before the agent stops and asks you to continue.
# max_iterations = 10

# At the limit: "wrap-up" (the last call asks the model to finish and say what it did and what
# remains) or "stop" (it stops after the last call, without a word from the model).
# on_max_iterations = "wrap-up"

# The most tool calls of one model response that run at once; false for parallel_tool_calls asks
# the model for one call per response, and runs the calls of a response one by one.
# max_parallel_tools = 4
# parallel_tool_calls = true

# Seconds a tool call may run before it is stopped and the model is told it timed out (0: never; at
# most 2073600, 24 days).
# tool_timeout = 300

# Instructions added to the agent's system prompt.
# system_prompt = "You are a careful assistant. Answer briefly."

# Log each model request and response and each tool call to stderr (API keys are redacted).
# verbose = false

# The workspace tools, confined to the working directory: read_file, write_file, edit_file (or
# apply_patch, for the models trained on it), list_files, search and run_command (in a sandbox).
# builtin_tools = true

# Plugin modules that add tools: paths relative to this file, or package names. A plugin module
# exports { name, register(container) } as its default export (or as "plugin").
# plugins = ["./tools/my-plugin.js"]
#
# A project's .agentloop/config.toml may name plugins only when this (user) file trusts the project,
# since they run its code. List the project directories here; a project file may not set it.
# trusted_projects = ["~/src/my-project"]

# Files the file tools refuse (list_files marks them), beside a default deny-list of secret files: SSH and
# GPG keys, *.pem, *.key, .env, .env.* (not .env.example) and .envrc, .npmrc, .pypirc, .netrc,
# .git-credentials, .cargo/credentials, .aws/credentials, .config/gcloud, .docker/config.json,
# .kube/config, ... (the README lists them all). Globs relative to the working
# directory; "**" matches any depth. A project file may add to deny; only this (user) file may allow.
# [tools]
# deny = ["secrets/**", "**/*.sqlite"]
# allow = [".env.local"]

# When a tool call waits for your approval (--approval MODE sets it for one session): "read-only"
# (tools that only read run; the others are refused), "ask" (tools that only read run; every other
# call asks), "auto" (everything that stays in the working directory runs, run_command in its
# sandbox; what reaches outside asks) or "yolo" (nothing asks). Rules come first, in order, and the
# first that matches a call decides: "tool" may use * (github__*), and "command" is a pattern the
# command of run_command must match whole, * for any characters. agentloop run never waits: what
# asks is refused, unless a rule allows it or the mode is "yolo". A project file may make approvals
# stricter, never looser (no more permissive mode, no allow rule), unless trusted_projects lists it.
# [approval]
# mode = "auto"
#
# [[approval.rules]]
# tool = "run_command"
# command = "npm test*"
# action = "allow"
#
# [[approval.rules]]
# tool = "run_command"
# command = "git push*"
# action = "ask"

# How run_command confines commands, on Linux with bubblewrap (bwrap) (--sandbox MODE sets it for one
# session): "workspace-write" (the working directory writable, the rest of the file system read-only,
# a private /tmp, no network), "read-only", or "off" (no sandbox). Where the sandbox cannot run,
# commands run without it and each one asks first, whatever the rules allow (agentloop run, which asks
# no one, refuses them). network = true lets sandboxed commands use the network. Commands get only the environment variables they need (PATH, HOME, the locale, the
# toolchains' own; see the workspace tools' README); pass_environment adds names, or prefixes ending in *.
# A project file may not loosen this either, unless trusted.
# [sandbox]
# mode = "workspace-write"
# network = false
# pass_environment = ["DATABASE_URL", "MY_APP_*"]

# Where sessions are saved, for agentloop --continue (the last one of the directory) and --resume:
# "sqlite" (one database), "jsonl" (a file per session), "postgres" (a PostgreSQL database several
# machines share, named by the environment variable url_env_var, default DATABASE_URL) or "off"
# (nothing is saved). The folder is "sessions" in your data directory unless directory says otherwise.
# directory, url_env_var and store = "postgres" are read from this user file only.
# [sessions]
# store = "sqlite"
# directory = "~/.local/share/agentloop/sessions"
# url_env_var = "DATABASE_URL"

# agentloop serve: the web page and its API. It listens on host (default 127.0.0.1, this machine only)
# and port (default 4680; 0 picks a free one). Every API request needs the bearer token the command
# prints in the page's address; token_env_var names the environment variable that holds a fixed one (at
# least 16 characters; without it the token is random at each start). A host other than 127.0.0.1, ::1
# or localhost needs that token. allowed_origins lists the web origins of other pages that may call the
# API. host, token_env_var and allowed_origins are read from this user file only. A session's agent (with
# its MCP servers) ends once the session had no run for session_idle_timeout seconds (default 900), and
# its next run starts it again; 0 keeps every session's agent until the server stops.
# [serve]
# port = 4680
# host = "127.0.0.1"
# token_env_var = "AGENTLOOP_SERVE_TOKEN"
# allowed_origins = ["https://app.example.com"]
# session_idle_timeout = 900

# Compaction: before a request that would fill more than threshold of the model's context window
# (above 0, below 1), the older part of the conversation is summarised; enabled = false turns that off
# (/compact still compacts on demand). context_window sets the model's window in tokens, for a local
# or unlisted model whose window the model table does not know.
# [compaction]
# enabled = true
# threshold = 0.8
# context_window = 128000

# Retries of a failed model call (a rate limit, an overloaded or failing server, a dropped connection):
# max_retries after the first attempt (0 never retries), each after a random wait below a ceiling that
# starts at initial_delay_ms and doubles up to max_delay_ms; a server's retry-after is honoured up to
# max_retry_after_ms. The values below are the defaults.
# [retry]
# max_retries = 4
# initial_delay_ms = 500
# max_delay_ms = 30000
# max_retry_after_ms = 60000

# Skills (Agent Skills format: a folder with a SKILL.md) are found in the project's .agents/skills,
# .agentloop/skills and .claude/skills (only when trusted_projects lists the project), and in your
# skills folder beside this file, ~/.agents/skills and ~/.claude/skills. /skills lists them.
# [skills]
# enabled = true
# folders = ["~/src/team-skills"]
# disabled = ["some-skill"]

# What agentloop knows of a model, over its model table (which knows the Claude and OpenAI models):
# for a local or unlisted model, or to correct a price. The name is a model id, or the start of the
# ids it covers ("qwen3" for qwen3-coder:30b). An unknown model otherwise runs with safe defaults:
# 32768 tokens, one tool call per response, edit_file, no price (--verbose says so).
# context_window is in tokens; input_price and output_price (both or neither) in US dollars per
# million tokens; edit_tool is "edit_file" (replace exact text) or "apply_patch" (the patch format
# OpenAI's GPT-5 and codex models are trained on).
# [models."qwen3-coder"]
# context_window = 262144
# input_price = 0.1
# output_price = 0.3
# parallel_tool_calls = true
# edit_tool = "apply_patch"

# Provider settings. A project file may set base_url or api_key_env only together with an api_key of
# its own, so a project cannot send your key to a server it chooses. API keys fall back to the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, or the
# variable named by api_key_env), so you do not need to write them here. A project table that points
# one of these elsewhere (another base_url, or the other vendor's type) keeps none of your api_key,
# api_key_env or headers.
# [providers.anthropic]
# api_key = "sk-ant-..."
# model = "claude-sonnet-4-6"

# [providers.openai]
# api_key_env = "OPENAI_API_KEY"
# model = "gpt-5-mini"

# A local OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio): no API key needed.
# Use it with provider = "ollama" or --provider ollama. A base URL may not hold a user name or
# password (http://user:password@host is refused): a server behind basic auth gets its credential
# as a header, sent with every request and redacted from logs like an API key.
# [providers.ollama]
# type = "openai"
# base_url = "http://localhost:11434/v1"
# model = "llama3.2"
# headers = { Authorization = "Basic dXNlcjpwYXNzd29yZA==" }

# MCP servers, whose tools the agent gets as NAME__tool: a program started over stdio (command), or an
# HTTP endpoint (url). A stdio server gets only the env given here (and HOME, PATH and a few more);
# an HTTP one its headers, headers from environment variables, or a bearer token from one. A server
# that fails to start is named in a warning at start; \`agentloop mcp list\` and /mcp show each server,
# its state and its tools. A project file may add servers only when trusted_projects lists it, and
# its table of a name replaces yours whole (none of your env, headers or tokens).
# [mcp_servers.github]
# command = "npx"
# args = ["-y", "@modelcontextprotocol/server-github"]
# env = { GITHUB_PERSONAL_ACCESS_TOKEN = "ghp_..." }
# startup_timeout_sec = 30
# tool_timeout_sec = 120
# max_resource_bytes = 65536   # the most of a resource's text attached or read at once (64 KB)
# enabled_tools = ["create_issue", "list_issues"]
#
# [mcp_servers.docs]
# url = "https://mcp.example.com/mcp"
# bearer_token_env_var = "DOCS_MCP_TOKEN"
# enabled = true
#
# A remote server that wants OAuth needs no more than its url: \`agentloop mcp login tracker\` opens the
# browser (or runs client credentials), and the tokens are kept in your data directory, readable by you
# alone. The oauth table is for what the server cannot tell: a pre-registered client, extra scopes.
# [mcp_servers.tracker]
# url = "https://mcp.tracker.example/mcp"
# [mcp_servers.tracker.oauth]
# client_id = "agentloop-at-acme"               # a client registered beforehand; omit to register
# client_secret_env_var = "TRACKER_CLIENT_SECRET"
# scopes = ["issues:read", "issues:write"]
# grant = "authorization_code"                  # or "client_credentials" (with private_key_file, or the secret)
# redirect_port = 8765                          # default: a free port on 127.0.0.1
#
# A server whose 401 names no authorization server is taken for one that wants credentials in headers.
# An oauth table, even an empty one, says it uses OAuth (an older server, at the default endpoints of its
# origin): agentloop then asks for \`agentloop mcp login wiki\` instead.
# [mcp_servers.wiki]
# url = "https://wiki.example.com/mcp"
# oauth = {}
`;
