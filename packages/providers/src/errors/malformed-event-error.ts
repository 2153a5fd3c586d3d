/**
 * A stream event that parsed as JSON but lacks what its type promises (a `content_block_start` without its
 * block): the reader failed on it. providerErrorFromThrown reports it as `invalid_response`, naming the
 * event, rather than as the bare TypeError the reader threw.
 */
export class MalformedEventError extends Error {
  /** The event's `type`, when it has one. */
  readonly eventType: string | undefined;

  constructor(event: unknown, cause: unknown) {
    const type = (event as { type?: unknown } | null | undefined)?.type;
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'MalformedEventError';
    this.eventType = typeof type === 'string' ? type : undefined;
  }
}

/** What a reader threw on `event`: a TypeError (the event's shape was not the API's) as a MalformedEventError. */
export function malformedEvent(error: unknown, event: unknown): unknown {
  return error instanceof TypeError ? new MalformedEventError(event, error) : error;
}
