import type { ServeConfig } from '../config/index.js';
import { CliError } from '../errors/index.js';

/** The options of `agentloop serve`. */
export interface ServeFlags {
  port?: number;
  host?: string;
  token?: string;
  /** Open the page in a browser once the server listens. */
  open?: boolean;
}

/** Where `agentloop serve` listens and who may call it, from its options, `[serve]` and the environment. */
export interface ServeSettings {
  host: string;
  port: number;
  /** The bearer token chosen by the user; undefined for a random one per start. */
  token: string | undefined;
  allowedOrigins: string[];
  open: boolean;
  /** One line to print before serving, when the server can be reached from other machines. */
  warning: string | undefined;
  /** How long a session's agent is kept after its last run, in ms; 0 keeps it until the server stops. */
  sessionIdleTimeoutMs: number;
}

export const DEFAULT_SERVE_PORT = 4680;
export const DEFAULT_SESSION_IDLE_TIMEOUT_SECONDS = 15 * 60;
export const DEFAULT_SERVE_HOST = '127.0.0.1';
/** The shortest token accepted: the handler's own rule, said here before anything starts. */
const MIN_TOKEN_LENGTH = 16;

/**
 * Reads the settings of `agentloop serve`: an option wins over `[serve]`, which wins over the defaults
 * (127.0.0.1:4680, a random token). Throws a CliError (`invalid_serve_settings`) that says what to change
 * for a token shorter than 16 characters, a `token_env_var` naming an unset variable, and an address
 * other machines can reach without a token the user chose: a random token would be printed only here,
 * and a configured one is what the user meant to share.
 */
export function resolveServeSettings(
  flags: ServeFlags,
  config: ServeConfig | undefined,
  environment: Record<string, string | undefined>,
): ServeSettings {
  const host = flags.host ?? config?.host ?? DEFAULT_SERVE_HOST;
  const port = flags.port ?? config?.port ?? DEFAULT_SERVE_PORT;
  let token = flags.token;
  let tokenSource = '--token';
  if (token === undefined && config?.token_env_var !== undefined) {
    token = environment[config.token_env_var];
    tokenSource = `the environment variable ${config.token_env_var} ([serve] token_env_var)`;
    if (token === undefined || token === '') {
      throw invalid(
        `[serve] token_env_var names ${config.token_env_var}, which is not set: set it to a token of at least ${MIN_TOKEN_LENGTH} characters, or remove token_env_var for a random token.`,
      );
    }
  }
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw invalid(
      `The token from ${tokenSource} is ${token.length} characters long: give at least ${MIN_TOKEN_LENGTH} (e.g. from openssl rand -hex 24).`,
    );
  }
  const loopback = isLoopback(host);
  if (!loopback && token === undefined) {
    throw invalid(
      `Listening on ${host} lets other machines reach the agent, so it needs a token you chose: set [serve] token_env_var to an environment variable that holds one (or give --token), or leave --host out to serve this machine only.`,
    );
  }
  return {
    host,
    port,
    token,
    allowedOrigins: [...(config?.allowed_origins ?? [])].map((origin) => origin.replace(/\/$/, '')),
    open: flags.open ?? false,
    sessionIdleTimeoutMs: Math.round((config?.session_idle_timeout ?? DEFAULT_SESSION_IDLE_TIMEOUT_SECONDS) * 1000),
    warning: loopback
      ? undefined
      : `agentloop serve listens on ${host}: anyone who can reach it and has the token can use the agent and its tools in this directory.`,
  };
}

/** True for an address only this machine reaches: localhost, 127.0.0.0/8, ::1. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** The page's address with its token in the fragment, which the browser never sends to the server. */
export function pageUrl(host: string, port: number, token: string): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const authority = shown.includes(':') && !shown.startsWith('[') ? `[${shown}]` : shown;
  return `http://${authority}:${port}/#token=${encodeURIComponent(token)}`;
}

function invalid(message: string): CliError {
  return new CliError(message, { code: 'invalid_serve_settings' });
}
