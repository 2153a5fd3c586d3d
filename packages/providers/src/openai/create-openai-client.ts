import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import type { OpenAIProviderOptions } from './openai-provider-options.js';
import { type FetchFunction, wrapErrorBodies } from './wrap-error-bodies.js';

const OPENAI_HOST = /^https:\/\/api\.openai\.com(?:\/|$)/;

/** An API key for servers that want none: the SDK refuses to start without one. */
export const PLACEHOLDER_API_KEY = 'not-needed';

/** The SDK client of a provider, and whether it talks to an OpenAI-compatible server rather than OpenAI. */
export interface OpenAIClientSetup {
  client: OpenAI;
  compatible: boolean;
  generateId: () => string;
}

/** Creates the SDK client with its own retries off (the provider retries) and the key a server needs. */
export function createOpenAIClient(options: OpenAIProviderOptions): OpenAIClientSetup {
  const baseURL = options.baseURL ?? process.env.OPENAI_BASE_URL;
  const compatible = options.compatible ?? (baseURL !== undefined && baseURL !== '' && !OPENAI_HOST.test(baseURL));
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY ?? (compatible ? PLACEHOLDER_API_KEY : undefined);
  const fetchFunction =
    (options.clientOptions?.fetch as FetchFunction | undefined) ?? ((input, init) => fetch(input, init));
  const client = new OpenAI({
    ...options.clientOptions,
    ...(compatible ? { fetch: wrapErrorBodies(fetchFunction) } : {}),
    apiKey,
    baseURL: baseURL || undefined,
    defaultHeaders: { ...options.clientOptions?.defaultHeaders, ...options.headers },
    maxRetries: 0,
  });
  return {
    client,
    compatible,
    generateId: options.generateId ?? (() => `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`),
  };
}
