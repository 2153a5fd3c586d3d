import { GoogleGenAI, type HttpOptions } from '@google/genai';
import { nonBlank } from '../environment/non-blank.js';
import { providerNotConfigured } from '../errors/index.js';

/** Further options of the SDK's HTTP layer; retries stay off in the SDK: the provider retries. */
export type GoogleClientOptions = Pick<HttpOptions, 'fetch' | 'timeout' | 'apiVersion' | 'extraBody'>;

/** What the SDK client is made from: the connection options of a GoogleProviderOptions. */
export interface GoogleConnectionOptions {
  apiKey?: string;
  baseURL?: string;
  headers?: Record<string, string>;
  clientOptions?: GoogleClientOptions;
}

/** The API key: the option, else GEMINI_API_KEY, else GOOGLE_API_KEY. */
export function googleApiKey(options: GoogleConnectionOptions): string | undefined {
  return nonBlank(options.apiKey) ?? nonBlank(process.env.GEMINI_API_KEY) ?? nonBlank(process.env.GOOGLE_API_KEY);
}

/** The base URL: the option, else GOOGLE_GEMINI_BASE_URL (which the SDK reads too), else Google's. */
export function googleBaseURL(options: GoogleConnectionOptions): string | undefined {
  return nonBlank(options.baseURL) ?? nonBlank(process.env.GOOGLE_GEMINI_BASE_URL);
}

/**
 * Creates the SDK client for the Gemini API (never Vertex AI, whatever GOOGLE_GENAI_USE_VERTEXAI says).
 * The key is resolved here, so the SDK neither picks GOOGLE_API_KEY over GEMINI_API_KEY nor warns on
 * `console` when both are set. Without one it throws an AgentloopError (`provider_not_configured`) saying
 * what to set, rather than failing at the first request. The SDK's retries are off unless asked for
 * (`retryOptions` unset), and they stay unset: the provider has the one retry layer.
 */
export function createGoogleClient(options: GoogleConnectionOptions): GoogleGenAI {
  const apiKey = googleApiKey(options);
  if (apiKey === undefined) {
    throw providerNotConfigured(
      'Gemini needs an API key: set GEMINI_API_KEY (or GOOGLE_API_KEY) or pass the apiKey option.',
    );
  }
  const baseUrl = googleBaseURL(options);
  return new GoogleGenAI({
    vertexai: false,
    apiKey,
    httpOptions: {
      ...options.clientOptions,
      ...(baseUrl ? { baseUrl } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    },
  });
}
