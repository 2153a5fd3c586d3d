import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic, { type ClientOptions } from '@anthropic-ai/sdk';
import { nonBlank } from '../environment/non-blank.js';
import { providerNotConfigured } from '../errors/index.js';

/** What the SDK client is made from: the connection options of an AnthropicProviderOptions. */
export interface AnthropicClientOptions {
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  clientOptions?: Omit<ClientOptions, 'apiKey' | 'baseURL' | 'maxRetries'>;
}

const ANTHROPIC_HOST = /^https:\/\/api\.anthropic\.com(?:\/|$)/;
const CREDENTIAL_HEADER = /^(?:x-api-key|authorization)$/i;
// ANTHROPIC_CUSTOM_HEADERS holds `Name: value` lines, which the SDK adds to every request.
const CUSTOM_CREDENTIAL_HEADER = /^\s*(?:x-api-key|authorization)\s*:\s*\S/im;
const CREDENTIAL_OPTIONS = ['authToken', 'credentials', 'config', 'profile'] as const;

/**
 * The SDK's logger when `clientOptions.logger` gives none. The SDK would log to `console`, and what it
 * logs holds the server's bytes raw (a malformed event whole), which could drive the terminal of the app;
 * every failure it logs it also throws, so the app hears of it as a ProviderError.
 */
const SILENT_LOGGER = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };

/**
 * Creates the SDK client with its own retries off (the provider retries).
 *
 * Without credentials the SDK starts anyway and fails every request with "Could not resolve
 * authentication method", so the mistake would show only once an agent runs. For Anthropic's own API,
 * when nothing supplies a credential (see hasCredential), this throws an AgentloopError
 * (`provider_not_configured`) saying what to set. Another `baseURL` (a proxy, a gateway, a test server)
 * is left to the SDK: such a server may take its credential some other way, and one that needs no
 * credential at all is reached by leaving the header out (`clientOptions.defaultHeaders: { authorization: null }`).
 *
 * The SDK logs (its warnings, a malformed event) only to `clientOptions.logger`, never to `console`.
 */
export function createAnthropicClient(options: AnthropicClientOptions): Anthropic {
  const headers = { ...options.clientOptions?.defaultHeaders, ...options.headers };
  const baseURL = nonBlank(options.baseURL) ?? nonBlank(process.env.ANTHROPIC_BASE_URL);
  if ((baseURL === undefined || ANTHROPIC_HOST.test(baseURL)) && !hasCredential(options, headers)) {
    throw providerNotConfigured(
      'Anthropic needs an API key: set ANTHROPIC_API_KEY or pass the apiKey option (or set ANTHROPIC_AUTH_TOKEN for a bearer token).',
    );
  }
  return new Anthropic({
    ...options.clientOptions,
    logger: options.clientOptions?.logger ?? SILENT_LOGGER,
    // Unset, the SDK reads ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN itself, and a credential in
    // clientOptions (authToken, profile) does not clash with one from the environment.
    apiKey: nonBlank(options.apiKey),
    baseURL: options.baseURL,
    defaultHeaders: headers,
    // One retry layer: ours, which announces each retry and restarts broken streams too.
    maxRetries: 0,
  });
}

/**
 * True when the SDK will find a credential: an API key or auth token (option or environment), a
 * credential option in `clientOptions`, an `x-api-key` or `authorization` header (also through
 * ANTHROPIC_CUSTOM_HEADERS), or its default credential chain (see mayResolveDefaultCredentials).
 */
function hasCredential(options: AnthropicClientOptions, headers: Record<string, unknown>): boolean {
  const clientOptions = options.clientOptions ?? {};
  return (
    nonBlank(options.apiKey) !== undefined ||
    nonBlank(process.env.ANTHROPIC_API_KEY) !== undefined ||
    nonBlank(process.env.ANTHROPIC_AUTH_TOKEN) !== undefined ||
    CREDENTIAL_OPTIONS.some((name) => clientOptions[name] != null) ||
    Object.entries(headers).some(([name, value]) => CREDENTIAL_HEADER.test(name) && nonBlank(value) !== undefined) ||
    CUSTOM_CREDENTIAL_HEADER.test(process.env.ANTHROPIC_CUSTOM_HEADERS ?? '') ||
    mayResolveDefaultCredentials()
  );
}

/**
 * True when the SDK's default credential chain, which it runs at the first request, may find something:
 * a profile named by ANTHROPIC_PROFILE, workload identity federation set up in the environment, or a
 * profile in its config directory (ANTHROPIC_CONFIG_DIR, else `%APPDATA%\Anthropic` on Windows,
 * `$XDG_CONFIG_HOME/anthropic` or `~/.config/anthropic`). It errs towards true: a credential that turns
 * out missing still fails at the first request, with the SDK's message, as it did before this check.
 */
function mayResolveDefaultCredentials(): boolean {
  const env = process.env;
  if (nonBlank(env.ANTHROPIC_PROFILE) !== undefined) return true;
  if (nonBlank(env.ANTHROPIC_FEDERATION_RULE_ID) && nonBlank(env.ANTHROPIC_ORGANIZATION_ID)) return true;
  const directory = configDirectory(env);
  return directory !== undefined && existsSync(join(directory, 'configs'));
}

/** The SDK's config directory, found as the SDK finds it. */
function configDirectory(env: NodeJS.ProcessEnv): string | undefined {
  const explicit = nonBlank(env.ANTHROPIC_CONFIG_DIR);
  if (explicit) return explicit;
  if (process.platform === 'win32') {
    const appData = nonBlank(env.APPDATA);
    if (appData) return join(appData, 'Anthropic');
    const userProfile = nonBlank(env.USERPROFILE);
    return userProfile ? join(userProfile, 'AppData', 'Roaming', 'Anthropic') : undefined;
  }
  const xdgConfigHome = nonBlank(env.XDG_CONFIG_HOME);
  if (xdgConfigHome) return join(xdgConfigHome, 'anthropic');
  const home = nonBlank(env.HOME);
  return home ? join(home, '.config', 'anthropic') : undefined;
}
