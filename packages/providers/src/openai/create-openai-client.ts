import OpenAI from 'openai';
import { nonBlank } from '../environment/non-blank.js';
import { providerNotConfigured } from '../errors/index.js';
import type { OpenAIProviderOptions } from './openai-provider-options.js';
import { type FetchFunction, wrapErrorBodies } from './wrap-error-bodies.js';

const OPENAI_HOST = /^https:\/\/api\.openai\.com(?:\/|$)/;

/**
 * The SDK's logger when `clientOptions.logger` gives none. The SDK would log to `console`, and what it
 * logs holds the server's bytes raw (a malformed event whole), which could drive the terminal of the app;
 * every failure it logs it also throws, so the app hears of it as a ProviderError.
 */
const SILENT_LOGGER = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} };

/** An API key for servers that want none: the SDK refuses to start without one. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** The SDK client of a provider, and whether it talks to an OpenAI-compatible server rather than OpenAI. */
export interface OpenAIClientSetup {
  client: OpenAI;
  compatible: boolean;
  /** The base URL the client talks to (undefined: OpenAI's). */
  baseURL: string | undefined;
  /** True when no API key is sent (the placeholder a compatible server gets). */
  keyless: boolean;
  generateId: () => string;
}

/**
 * Creates the SDK client with its own retries off (the provider retries) and the key a server needs.
 * Throws an AgentloopError (`provider_not_configured`) when OpenAI itself is asked for without credentials,
 * in place of the SDK's own error, which does not say which option of ours to pass. The SDK logs (its
 * warnings, a malformed event) only to `clientOptions.logger`, never to `console`.
 */
export function createOpenAIClient(options: OpenAIProviderOptions): OpenAIClientSetup {
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL;
  const compatible = options.compatible ?? (baseURL !== undefined && baseURL !== '' && !OPENAI_HOST.test(baseURL));
  // A blank key (`OPENAI_API_KEY=` in a .env file) is no key, as the SDK reads it.
  const apiKey =
    nonBlank(options.apiKey) ?? nonBlank(process.env.OPENAI_API_KEY) ?? (compatible ? PLACEHOLDER_API_KEY : undefined);
  if (apiKey === undefined && !hasOtherCredential(options.clientOptions)) {
    throw providerNotConfigured(
      'OpenAI needs an API key: set OPENAI_API_KEY or pass the apiKey option (an OpenAI-compatible server needs none: pass its baseURL).',
    );
  }
  const fetchFunction =
    (options.clientOptions?.fetch as FetchFunction | undefined) ?? ((input, init) => fetch(input, init));
  const client = new OpenAI({
    ...options.clientOptions,
    logger: options.clientOptions?.logger ?? SILENT_LOGGER,
    ...(compatible ? { fetch: wrapErrorBodies(fetchFunction) } : {}),
    apiKey,
    baseURL: baseURL || undefined,
    defaultHeaders: { ...options.clientOptions?.defaultHeaders, ...options.headers },
    maxRetries: 0,
  });
  return {
    client,
    compatible,
    baseURL: baseURL || undefined,
    keyless: apiKey === PLACEHOLDER_API_KEY,
    // The global Web Crypto, not node:crypto: importing that module costs a cold start about 4 ms, and
    // an id is made only when a server sends a tool call without one.
    generateId: options.generateId ?? (() => `call_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`),
  };
}

/** Hosts that want the model's reasoning back (`reasoning_content`) and surely accept it. */
const REASONING_HOSTS = /(?:^|\.)(?:deepseek\.com|moonshot\.ai|moonshot\.cn)$/;
/** Loopback, private and link-local IPv4 addresses (and 0.0.0.0), as the URL parser writes them. */
const PRIVATE_IPV4 = /^(?:127\.|10\.|192\.168\.|169\.254\.|172\.(?:1[6-9]|2\d|3[01])\.|0\.0\.0\.0$)(?:\d{1,3}\.?)*$/;
/** IPv6 loopback, unique-local (fc00::/7) and link-local (fe80::/10) addresses, in brackets. */
const PRIVATE_IPV6 = /^\[(?:::1|f[cd][0-9a-f]{0,2}:.*|fe[89ab][0-9a-f]:.*)\]$/;
/** Names that do not resolve on the public internet: one label (`ollama`, `localhost`) or a private suffix. */
const PRIVATE_NAME = /^[^.]+$|\.(?:localhost|local|lan|internal|home\.arpa)$/;

/**
 * Whether a Chat Completions server gets the model's reasoning back by default: DeepSeek's and Moonshot's
 * APIs, and a server of one's own, on this machine or a private network (llama.cpp, Ollama, vLLM, LM Studio
 * all take the field, and the chat templates of local reasoning models read it). Never OpenAI, and not
 * other public servers, some of which (Groq, Cerebras) reject a field they do not know.
 */
export function sendsReasoningByDefault(setup: Pick<OpenAIClientSetup, 'compatible' | 'baseURL'>): boolean {
  if (!setup.compatible || setup.baseURL === undefined) return false;
  let host: string;
  try {
    // The parser lowercases names and normalises IP addresses; a fully qualified name may end in a dot.
    host = new URL(setup.baseURL).hostname.replace(/\.$/, '');
  } catch {
    return false;
  }
  if (host.startsWith('[')) return PRIVATE_IPV6.test(host);
  if (/^[\d.]+$/.test(host)) return PRIVATE_IPV4.test(host);
  return REASONING_HOSTS.test(host) || PRIVATE_NAME.test(host);
}

/** The SDK's other ways to authenticate, which it accepts instead of an API key. */
function hasOtherCredential(clientOptions: OpenAIProviderOptions['clientOptions']): boolean {
  return (
    clientOptions?.workloadIdentity != null ||
    clientOptions?.provider != null ||
    nonBlank(clientOptions?.adminAPIKey ?? undefined) !== undefined ||
    nonBlank(process.env.OPENAI_ADMIN_KEY) !== undefined
  );
}
