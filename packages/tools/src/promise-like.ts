/**
 * True for a value `await` would wait for: a promise or any thenable. Never throws: a value whose `then`
 * cannot be read is not one (and `await` would fail on it the same way).
 */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  if (value instanceof Promise) return true;
  try {
    return typeof (value as { then?: unknown }).then === 'function';
  } catch {
    return false;
  }
}
