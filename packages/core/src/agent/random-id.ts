import { randomUUID } from 'node:crypto';

/**
 * A random UUID, flattened. Node builds `randomUUID()`'s text by joining twenty pieces, which V8 keeps as a
 * tree of joins (about 490 bytes) until the text is first read character by character; reading one here
 * makes it one flat string of about 60 bytes. An agent keeps its session id, and its run id goes with every
 * event of a run, so with many agents at once the trees added up.
 */
export function randomId(): string {
  const id = randomUUID();
  id.charCodeAt(0);
  return id;
}
