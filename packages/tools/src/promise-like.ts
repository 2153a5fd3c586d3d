/**
 * True for a value `await` would wait for: a promise or any thenable. Throws what reading a hostile
 * value's `then` throws, as `await` would: call it where a throw is handled.
 */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  return value instanceof Promise || typeof (value as { then?: unknown }).then === 'function';
}
