import { redactUrlCredentials } from '../verbose/redact.js';
import { stripControls } from './strip-controls.js';

/** What the CLI knows about the provider, to make an error line say what to check. */
export interface ErrorContext {
  /** `anthropic`, `openai`, or a configured name. */
  providerName?: string;
  baseURL?: string;
  /** Where the API key came from, e.g. `ANTHROPIC_API_KEY`. */
  apiKeySource?: string;
}

/**
 * One clear line for a failure: what happened and what to check, without a stack trace. Provider errors
 * are worded by their code (a rejected key, an unreachable server, an unknown model). Whoever shows the
 * line, it is safe to: the user-info of any URL in it is redacted, and a server's control sequences are
 * stripped.
 */
export function describeError(error: unknown, context: ErrorContext = {}): string {
  return redactUrlCredentials(stripControls(describeFailure(error, context)));
}

function describeFailure(error: unknown, context: ErrorContext): string {
  const failure = errorFields(error);
  const provider = context.providerName ?? failure.provider ?? 'the provider';
  const server = context.baseURL ?? provider;
  const status = failure.statusCode ? ` (HTTP ${failure.statusCode})` : '';
  switch (failure.code) {
    case 'authentication':
      return `The API key was rejected by ${provider}${status}. Check ${context.apiKeySource ?? 'the API key'}.`;
    case 'permission':
      return `${capitalize(provider)} refused the request${status}: the API key may lack access to this model.`;
    case 'network': {
      const cause = connectionProblem(error);
      return `Cannot reach ${server}${cause ? ` (${cause})` : ''}. Is the server running and the URL right?`;
    }
    case 'timeout':
      return `${capitalize(server)} stopped answering (timed out).`;
    case 'not_found':
      return `${capitalize(provider)} does not know this model or endpoint${status}: ${firstSentence(failure.message)}.`;
    case 'rate_limit':
      return `${capitalize(provider)} is rate-limiting requests${status}; try again later.`;
    case 'context_length':
      return 'The conversation is too long for the model; /clear starts a new one.';
    default:
      return `${firstSentence(failure.message)}${failure.code === 'unknown' ? '' : ` (${failure.code})`}`;
  }
}

/**
 * The details `--verbose` adds below the line: code, status, the cause chain and the stack, one item a
 * line, URL user-info redacted and control sequences stripped.
 */
export function describeErrorDetails(error: unknown): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    if (current instanceof Error) {
      const { code, statusCode } = errorFields(current);
      const fields = code !== 'unknown' ? ` [code ${code}${statusCode ? `, status ${statusCode}` : ''}]` : '';
      lines.push(`${depth === 0 ? '' : 'caused by: '}${current.name}: ${current.message}${fields}`);
      if (current.stack) lines.push(...current.stack.split('\n').slice(1, 6));
      current = current.cause;
    } else {
      lines.push(`caused by: ${String(current)}`);
      current = undefined;
    }
  }
  return lines.map((line) => redactUrlCredentials(stripControls(line)));
}

/** What an error says about itself, read by shape (an AgentloopError's fields, or a plain Error's). */
export interface ErrorFields {
  code: string;
  message: string;
  statusCode?: number;
  provider?: string;
}

/**
 * The fields of anything thrown. It reads them by shape rather than with AgentloopError's helpers, so
 * rendering never loads @agentloop/core before the prompt (see errors/cli-error.ts).
 */
export function errorFields(error: unknown): ErrorFields {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  return {
    code: typeof fields.code === 'string' ? fields.code : 'unknown',
    message: redactUrlCredentials(error instanceof Error ? error.message : String(error)),
    ...(typeof fields.statusCode === 'number' ? { statusCode: fields.statusCode } : {}),
    ...(typeof fields.provider === 'string' ? { provider: fields.provider } : {}),
  };
}

/** The first line of a message, without a trailing period or the provider prefix (`openai: …`). */
export function firstSentence(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/^[a-z][\w-]*: /, '').replace(/\.$/, '');
}

// What went wrong with the connection, from the cause chain: the operating system's code (ECONNREFUSED,
// ENOTFOUND) when there is one, else the innermost cause's message (fetch's own, e.g. "bad port").
function connectionProblem(error: unknown): string | undefined {
  let current: unknown = error;
  let innermost: string | undefined;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    if (depth > 0 && current instanceof Error) innermost = current.message;
    current = (current as { cause?: unknown }).cause;
  }
  return innermost;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
