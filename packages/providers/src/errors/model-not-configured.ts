import { AgentloopError } from '@agentloop/spec';
import { serverAt, shownURL } from './provider-label.js';

/**
 * The error of an OpenAI-compatible server without a model: such a server serves models of its own, so
 * no default fits. `howToName` says how this program's user names one (`set OPENAI_MODEL or pass the
 * model option`); the message adds where the server lists its models.
 */
export function modelNotConfigured(baseURL: string | undefined, howToName: string): AgentloopError {
  const shown = baseURL === undefined ? undefined : shownURL(baseURL);
  const list = shown === undefined ? '' : ` (it lists its models at ${shown.replace(/\/+$/, '')}/models)`;
  const server = baseURL === undefined ? 'the OpenAI-compatible server' : serverAt(baseURL);
  return new AgentloopError(`No model is set for ${server}: ${howToName}${list}.`, { code: 'model_not_configured' });
}
