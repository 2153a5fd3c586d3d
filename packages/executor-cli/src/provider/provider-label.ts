import type { ProviderSpec } from '../config/index.js';
import { urlWithoutCredentials } from '../config/index.js';

/**
 * What errors call a server that speaks OpenAI's API and is not OpenAI (the providers' id for it), and
 * what `/model` takes for the one in use.
 */
export const COMPATIBLE_PROVIDER_NAME = 'openai-compatible';

const OPENAI_API = /^https:\/\/api\.openai\.com(?:\/|$)/;

/** True when a spec sends OpenAI's API to a server other than OpenAI's (Ollama, vLLM, a gateway). */
export function isCompatibleServer(spec: Pick<ProviderSpec, 'type' | 'baseURL'>): boolean {
  return spec.type.startsWith('openai') && spec.baseURL !== undefined && !OPENAI_API.test(spec.baseURL);
}

/**
 * The provider's name as the CLI shows it: `openai-compatible` for the kind `openai` sent to another
 * server, as errors name it (a base URL alone makes an `openai` provider), else the name the user gave.
 */
export function shownProviderName(spec: Pick<ProviderSpec, 'name' | 'type' | 'baseURL'>): string {
  return spec.name === 'openai' && isCompatibleServer(spec) ? COMPATIBLE_PROVIDER_NAME : spec.name;
}

/**
 * `name:model`, as `/model` takes it back, and where the requests go when that is not the vendor's
 * default: `openai-compatible:llama3.2 @ http://127.0.0.1:11434/v1`. The URL is shown as the URL parser
 * rebuilds it without user name and password.
 */
export function providerLabel(spec: Pick<ProviderSpec, 'name' | 'type' | 'model' | 'baseURL'>): string {
  const server =
    spec.baseURL === undefined ? '' : ` @ ${urlWithoutCredentials(spec.baseURL) ?? '(a base URL that is not valid)'}`;
  return `${shownProviderName(spec)}:${spec.model}${server}`;
}

/** The API each kind speaks, in the words of its vendor's documentation. */
const API_NAMES: Record<ProviderSpec['type'], string> = {
  anthropic: 'Messages API',
  openai: 'Chat Completions API',
  'openai-responses': 'Responses API',
  google: 'Gemini API',
};

/**
 * What the verbose log calls a provider: `name:model` as the session header shows it, and the API its
 * requests use (`openai-responses:gpt-5, Responses API`; `openai-compatible:llama3.2, Chat Completions
 * API`). The providers' own id says only `openai` or `openai-compatible`, for both of OpenAI's APIs.
 */
export function requestLabel(spec: Pick<ProviderSpec, 'name' | 'type' | 'model' | 'baseURL'>): string {
  return `${shownProviderName(spec)}:${spec.model}, ${API_NAMES[spec.type]}`;
}
