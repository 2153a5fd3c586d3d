import { SessionStoreError } from '@agentloop/memory';

/**
 * `value` (a message, or a record holding messages) as JSON, for saving. A message JSON cannot hold (a
 * cycle, a BigInt in tool arguments) is the caller's error, said plainly, and nothing is written.
 */
export function savedJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new SessionStoreError(`A message cannot be saved as JSON: ${(error as Error).message}.`, {
      code: 'invalid_session',
      cause: error,
    });
  }
}
