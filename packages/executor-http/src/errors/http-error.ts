import { AgentloopError } from '@agentloop/spec';

/** What a request got wrong, or why the server refused it; the `code` of an HttpError and of its JSON body. */
export type HttpErrorCode =
  /** The body is not JSON, or not the shape the route takes. */
  | 'invalid_body'
  /** The body is larger than `maxBodyBytes`. */
  | 'body_too_large'
  /** No bearer token, a wrong one, or `authenticate` refused the request. */
  | 'unauthorized'
  /** The request came from a browser origin that is not in `allowedOrigins`. */
  | 'origin_not_allowed'
  /** No such session, approval, question or elicitation for this principal. */
  | 'not_found'
  /** The session already runs: one run at a time per session. */
  | 'session_busy'
  /** The agent could not be created or the session not opened. */
  | 'agent_unavailable'
  /** Something failed on the server; the response says no more, the server's log says what. */
  | 'internal_error';

/**
 * An error the handler answers with its `statusCode` and a JSON body `{ error: { code, message } }`. The
 * message is written for the client: what was wrong and what to do, never a stack, a key or a header.
 */
export class HttpError extends AgentloopError<HttpErrorCode> {
  /** The HTTP status of the response. */
  override readonly statusCode: number;
  /** More for the client, e.g. the busy run's id. */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    message: string,
    options: { code: HttpErrorCode; statusCode: number; details?: Record<string, unknown>; cause?: unknown },
  ) {
    super(message, {
      code: options.code,
      statusCode: options.statusCode,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.statusCode = options.statusCode;
    this.details = options.details;
  }

  /** The JSON body of the response. */
  toBody(): { error: { code: HttpErrorCode; message: string } & Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...this.details } };
  }
}
