import type { CompactionResult } from '@agentloop/memory';
import type { Message } from '@agentloop/spec';
import { type RecordedError, recordError, restoreError } from '../journal/recorded-error.js';

/** A message of a compaction's result as recorded: the conversation's own message, by index, or a new one. */
type RecordedMessage = { readonly kept: number } | { readonly message: Message };

/**
 * A compaction as its journal step records it: the compactor's result, or the error it failed with. A
 * message the compactor kept is recorded by its index in the conversation, so that on replay the result
 * holds the very messages the replayed conversation holds, as a compaction made live does: the loop tells
 * by identity what a compaction kept of the run's messages.
 */
export type RecordedCompaction =
  | { readonly result: Omit<CompactionResult, 'messages'> & { readonly messages: readonly RecordedMessage[] } }
  | { readonly failure: RecordedError };

/** The compactor's result as its step records it. */
export function recordCompaction(before: readonly Message[], result: CompactionResult): RecordedCompaction {
  const index = new Map(before.map((message, at) => [message, at]));
  const messages = result.messages.map((message): RecordedMessage => {
    const kept = index.get(message);
    return kept === undefined ? { message } : { kept };
  });
  return { result: { ...result, messages } };
}

/** A failed compaction as its step records it. */
export function recordCompactionFailure(error: unknown): RecordedCompaction {
  return { failure: recordError(error) };
}

/** The recorded compaction, on the conversation as it is again on replay: its result, or its error to throw. */
export function restoreCompaction(
  before: readonly Message[],
  recorded: RecordedCompaction,
): { result: CompactionResult } | { error: Error } {
  if ('failure' in recorded) return { error: restoreError(recorded.failure) };
  const messages = recorded.result.messages.map((entry) =>
    'kept' in entry ? (before[entry.kept] as Message) : entry.message,
  );
  return { result: { ...recorded.result, messages } };
}
