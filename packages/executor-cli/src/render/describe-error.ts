import { redactUrlCredentials } from '../verbose/redact.js';
import { stripControls } from './strip-controls.js';

/** What the CLI knows about the provider, to make an error line say what to check. */
export interface ErrorContext {
  /** `anthropic`, `openai`, or a configured name. */
  providerName?: string;
  baseURL?: string;
  /** Where the API key came from, e.g. `ANTHROPIC_API_KEY`; undefined when no key is sent. */
  apiKeySource?: string;
  /** The model in use, which a 404 names. */
  model?: string;
  /** Where the line is shown: a session can `/clear`, a one-shot `agentloop run` cannot. */
  mode?: 'interactive' | 'run';
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
  const who = providerLabel(context, failure.provider);
  const status = failure.statusCode ? ` (HTTP ${failure.statusCode})` : '';
  switch (failure.code) {
    case 'authentication':
      if (context.apiKeySource === undefined && context.baseURL !== undefined) {
        // No key was sent (a compatible server needs none by default), so there is no key to check.
        return `${capitalize(who)} wants an API key${status}: set OPENAI_API_KEY, or api_key in [providers.${context.providerName ?? 'openai'}] of the user configuration.`;
      }
      return `${capitalize(who)} rejected the API key${status}: check ${context.apiKeySource ?? 'the API key'}.`;
    case 'permission':
      return `${capitalize(who)} refused the request${status}: the API key may lack access to this model.`;
    case 'network':
      return sentence(connectionFailure(error, failure, who));
    case 'timeout':
      return `${capitalize(who)} stopped answering (timed out).`;
    case 'not_found': {
      if (isOwnServer(context.baseURL)) return notFoundAtServer(context.baseURL, context.model, failure);
      const model = context.model === undefined ? 'this model' : `the model "${context.model}"`;
      return `${capitalize(who)} does not know ${model}${status}: ${sentence(serverWords(failure.message))}`;
    }
    case 'rate_limit':
      return `${capitalize(who)} is rate-limiting requests${status}; try again later.`;
    case 'context_length':
      return contextTooLong(context.mode);
    default:
      return `${firstSentence(failure.message)}${failure.code === 'unknown' ? '' : ` (${failure.code})`}`;
  }
}

/**
 * A 404 from a server named by its base URL. Most often the URL lacks the path the API is served under
 * (`http://127.0.0.1:8000` for vLLM's `/v1`), and the server's 404 for the path looks like one for an
 * unknown model; the line says to check the path first, and gives the `/v1` URL to try when it has none.
 */
function notFoundAtServer(baseURL: string, model: string | undefined, failure: ErrorFields): string {
  const server = baseURL.replace(/\/+$/, '');
  const said = ` The server said: ${sentence(serverWords(failure.message))}`;
  if (!hasPath(baseURL)) {
    return `The server at ${server} answered HTTP 404 (not found): the base URL has no path; check it, most often it ends in /v1 (${server}/v1).${said}`;
  }
  const forModel = model === undefined ? '' : ` for the model "${model}"`;
  return `The server at ${server} answered HTTP 404 (not found)${forModel}: check the base URL's path (most often it ends in /v1) and that the server has the model.${said}`;
}

function hasPath(baseURL: string): boolean {
  try {
    return new URL(baseURL).pathname.replace(/\/+$/, '') !== '';
  } catch {
    return true;
  }
}

function isOwnServer(baseURL: string | undefined): baseURL is string {
  return baseURL !== undefined && !VENDOR_HOST.test(baseURL);
}

/** What to do about a conversation that no longer fits, in the mode the line is shown in. */
function contextTooLong(mode: ErrorContext['mode']): string {
  const what = "The conversation is too long for the model's context window";
  if (mode === 'interactive')
    return `${what}; /clear starts a new one, or /model switches to a model with a larger window.`;
  if (mode === 'run') return `${what}: give a shorter task, or a model with a larger window (--model).`;
  return `${what}: start a new conversation, or use a model with a larger window.`;
}

/**
 * How a line names the provider: `Anthropic`, `OpenAI` or `Gemini` for the vendor's own API, `the server at <URL>`
 * for any other base URL (an OpenAI-compatible server, a proxy), else the configured name.
 */
function providerLabel(context: ErrorContext, provider: string | undefined): string {
  const { baseURL } = context;
  if (baseURL !== undefined && !VENDOR_HOST.test(baseURL)) return `the server at ${baseURL}`;
  const id = provider ?? context.providerName;
  if (id === 'anthropic') return 'Anthropic';
  if (id === 'openai' || id === 'openai-responses') return 'OpenAI';
  if (id === 'google') return 'Gemini';
  if (context.providerName === undefined && id === 'openai-compatible') return 'the OpenAI-compatible server';
  return context.providerName ?? id ?? 'the provider';
}

const VENDOR_HOST = /^https:\/\/(?:api\.(?:anthropic|openai)\.com|generativelanguage\.googleapis\.com)(?:\/|$)/;

/**
 * The line for a connection that failed. The providers of @agentloop/providers say it in one sentence,
 * `Cannot reach <who>: <what happened>`, naming the server and the cause in words; a failure they retried
 * (a reset, a timeout) gets the question to check, one they did not (a host that does not resolve, a bad
 * port) already says what to change. Another provider's error is described from its cause chain.
 */
function connectionFailure(error: unknown, failure: ErrorFields, who: string): string {
  const line = firstLine(failure.message);
  const retryable = (error as { retryable?: unknown } | null)?.retryable === true;
  if (line.startsWith('Cannot reach '))
    return retryable ? `${sentence(line)} Is the server running and the URL right?` : line;
  const cause = connectionProblem(error);
  return `Cannot reach ${who}${cause ? ` (${cause})` : ''}. Is the server running and the URL right?`;
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

/**
 * The first line of a message, without the provider prefix (`openai: …`) and without its closing
 * punctuation (`.`, `!`, `?`), so that the caller can end the sentence itself: `Sorry about that!` and a
 * `. Retrying` after it make one clean sentence, not `Sorry about that!. Retrying`.
 */
export function firstSentence(message: string): string {
  return firstLine(message)
    .replace(/^[a-z][\w-]*: /, '')
    .replace(/[\s.!?:;,]+$/, '');
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

/** The text ended as a sentence: a full stop added unless it ends in one already (or in `!`, `?`). */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text.replace(/[\s:;,]+$/, '')}.`;
}

/**
 * The server's own words in a provider's message: what follows the first ": ". The providers of
 * @agentloop/providers write `<what failed, where> (<status>)[ for model "<model>"]: <the server's words>`
 * and keep ": " out of the part before it (see providerErrorFromResponse); a message without one is all
 * words.
 */
function serverWords(message: string): string {
  const line = firstLine(message);
  const colon = line.indexOf(': ');
  return colon < 0 ? line : line.slice(colon + 2);
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
