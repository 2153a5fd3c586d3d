import { AgentloopError } from '@agentloop/spec';

// What the user can do about a provider's failure, by its code. The error's own message stays in the
// server's session and log: it may quote a provider's response, a URL or a header, none of which belongs
// in a browser.
const PROVIDER_ADVICE: Readonly<Record<string, string>> = {
  rate_limit: 'The model provider is rate limiting requests: wait a moment and send the message again.',
  overloaded: 'The model provider is overloaded: wait a moment and send the message again.',
  server_error: 'The model provider failed: send the message again later.',
  network: 'The server could not reach the model provider: send the message again later.',
  timeout: 'The model provider took too long to answer: send the message again.',
  stream_broken: 'The model provider’s answer broke off: send the message again.',
  context_length: 'The conversation is too long for the model: start a new session.',
  authentication: 'The server’s credentials for the model provider were refused: ask its operator to check them.',
  permission: 'The server may not use this model: ask its operator to check its configuration.',
};

/**
 * The text a client is shown for a run's failure: what happened and what to do, with the error's code for
 * the operator, never the error's message, cause or stack.
 */
export function safeErrorText(error: unknown): string {
  const code = AgentloopError.isInstance(error) ? String(error.code) : undefined;
  if (code === undefined) return 'The run failed inside the server; its log says why.';
  return `${PROVIDER_ADVICE[code] ?? 'The run failed; the server’s log says why.'} (code: ${code})`;
}
