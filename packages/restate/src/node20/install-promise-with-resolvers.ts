/** What `Promise.withResolvers` returns: a promise and the functions that settle it. */
export interface PromiseWithResolversResult<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

type PromiseConstructorWithResolvers = PromiseConstructor & {
  withResolvers?: <T>() => PromiseWithResolversResult<T>;
};

/**
 * Gives Node 20 `Promise.withResolvers` (ES2024, in Node 22), which `@restatedev/restate-sdk` calls while
 * it runs a handler. Does nothing where the runtime has it already, so a newer Node keeps its own. Returns
 * true when it installed the polyfill. Called by the `@agentloop/restate/node20` entry; an app may call it
 * itself instead, before it serves its durable agents.
 */
export function installPromiseWithResolvers(): boolean {
  const promiseConstructor = Promise as PromiseConstructorWithResolvers;
  if (typeof promiseConstructor.withResolvers === 'function') return false;
  // A method, not an arrow function: the specification creates the promise with `this` as the
  // constructor, so a subclass calling `MyPromise.withResolvers()` gets a MyPromise.
  function withResolvers<T>(this: PromiseConstructor): PromiseWithResolversResult<T> {
    let resolve!: PromiseWithResolversResult<T>['resolve'];
    let reject!: PromiseWithResolversResult<T>['reject'];
    const promise = new this<T>((resolvePromise, rejectPromise) => {
      resolve = resolvePromise;
      reject = rejectPromise;
    });
    return { promise, resolve, reject };
  }
  // Writable, configurable and not enumerable, as the built-in method is.
  Object.defineProperty(Promise, 'withResolvers', {
    value: withResolvers,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  return true;
}
