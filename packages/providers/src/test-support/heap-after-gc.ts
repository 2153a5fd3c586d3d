import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Tests run without --expose-gc; the flag set at run time exposes `gc` in contexts made after it.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * The heap in use after garbage collection, in bytes: full collections, each in a task of its own (the
 * targets of WeakRefs made or read in a task are kept until it ends), until the heap stops shrinking.
 *
 * Measured: what only WeakRefs hold (a conversation's cached conversion) may outlive the collections of
 * the first call after its last use and go in a later call's; a test that must not count it calls this
 * once before the measurement it compares.
 */
export async function heapAfterGc(): Promise<number> {
  let heap = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    collectGarbage();
    const after = process.memoryUsage().heapUsed;
    if (after >= heap - 1024) return after;
    heap = after;
  }
  return heap;
}
