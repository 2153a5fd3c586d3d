import { CliError } from '../errors/index.js';

/** No provider could be chosen, or the chosen one lacks what it needs (a key, a model). The message says what to set. */
export class NoProviderError extends CliError {
  constructor(message: string) {
    super(message, { code: 'no_provider' });
  }
}

/**
 * What to say when nothing at all says which provider to use: the variables that pick one (the same as
 * the library's, see readProviderEnvironment in @agentloop/providers), the flags, or a configuration file.
 */
export function noProviderMessage(userConfigFile: string): string {
  return [
    'No model provider is configured. Set one of:',
    '  ANTHROPIC_API_KEY=...         to use Anthropic (Claude)',
    '  OPENAI_API_KEY=...            to use OpenAI',
    '  GEMINI_API_KEY=...            to use Google Gemini',
    '  --base-url URL --model NAME   for an OpenAI-compatible server (or OPENAI_BASE_URL and OPENAI_MODEL),',
    '                                e.g. Ollama: --base-url http://localhost:11434/v1 --model llama3.2',
    `or write a configuration file with \`agentloop config init\` (${userConfigFile}).`,
  ].join('\n');
}
