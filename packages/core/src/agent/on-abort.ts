/** The listeners of each caller's signal, behind one `abort` listener of our own per signal. */
const listenersBySignal = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` when `signal` aborts; returns a function that stops listening. However many runs share
 * one signal (an app's shutdown signal passed to every run), the signal gets one listener from agentloop,
 * so Node never warns of a listener leak (MaxListenersExceededWarning past 10) that is not one.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let listeners = listenersBySignal.get(signal);
  if (!listeners) {
    const created = new Set<() => void>();
    listeners = created;
    listenersBySignal.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        listenersBySignal.delete(signal);
        for (const each of created) each();
      },
      { once: true },
    );
  }
  const own = listeners;
  own.add(listener);
  return () => own.delete(listener);
}
