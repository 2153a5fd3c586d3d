import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installPromiseWithResolvers } from './install-promise-with-resolvers.js';

type WithResolvers = <T>() => { promise: Promise<T>; resolve: (value: T) => void; reject: (reason?: unknown) => void };
const promiseConstructor = Promise as PromiseConstructor & { withResolvers?: WithResolvers };
const builtIn = Object.getOwnPropertyDescriptor(Promise, 'withResolvers');

describe('installPromiseWithResolvers', () => {
  beforeEach(() => {
    delete promiseConstructor.withResolvers;
  });
  afterEach(() => {
    delete promiseConstructor.withResolvers;
    if (builtIn) Object.defineProperty(Promise, 'withResolvers', builtIn);
  });

  it('installs a Promise.withResolvers whose functions settle its promise', async () => {
    expect(installPromiseWithResolvers()).toBe(true);
    const withPolyfill = promiseConstructor as { withResolvers: WithResolvers };
    const fulfilled = withPolyfill.withResolvers<number>();
    fulfilled.resolve(42);
    await expect(fulfilled.promise).resolves.toBe(42);
    const rejected = withPolyfill.withResolvers<number>();
    rejected.reject(new Error('no'));
    await expect(rejected.promise).rejects.toThrow('no');
  });

  it('is a method like the built-in one: not enumerable, and building a promise of the constructor it is called on', () => {
    installPromiseWithResolvers();
    const descriptor = Object.getOwnPropertyDescriptor(Promise, 'withResolvers');
    expect(descriptor).toMatchObject({ writable: true, configurable: true, enumerable: false });
    class TaggedPromise<T> extends Promise<T> {}
    const { promise } = (TaggedPromise as unknown as { withResolvers: WithResolvers }).withResolvers<void>();
    expect(promise).toBeInstanceOf(TaggedPromise);
  });

  it('leaves a runtime that has Promise.withResolvers as it is', () => {
    const own: WithResolvers = () => ({ promise: Promise.resolve() as never, resolve() {}, reject() {} });
    promiseConstructor.withResolvers = own;
    expect(installPromiseWithResolvers()).toBe(false);
    expect(promiseConstructor.withResolvers).toBe(own);
  });
});

describe('the @agentloop/restate/node20 entry', () => {
  it('gives a Node process without Promise.withResolvers one when imported', () => {
    const packageDir = fileURLToPath(new URL('../..', import.meta.url));
    // Deleted first, so the test proves the entry's work on a Node that already has it (22 and later) too.
    const program = [
      'delete Promise.withResolvers;',
      "await import('@agentloop/restate/node20');",
      'const { promise, resolve } = Promise.withResolvers();',
      "resolve('resolved');",
      'console.log(await promise);',
    ].join('\n');
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', program], {
      cwd: packageDir,
      encoding: 'utf8',
    });
    expect(output.trim()).toBe('resolved');
  });
});
