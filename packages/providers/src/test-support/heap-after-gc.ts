import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Tests run without --expose-gc; the flag set at run time exposes `gc` in contexts made after it.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * The heap in use after garbage collection, in bytes: full collections, each in a task of its own (the
 * targets of WeakRefs made or read in a task are kept until it ends), until two readings in a row agree
 * within 1 KB. Measured: what only WeakRefs held may take more than one collection to be freed.
 */
export async function heapAfterGc(): Promise<number> {
  let heap = Number.POSITIVE_INFINITY;
  let steady = 0;
  for (let round = 0; round < 20 && steady < 2; round++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    collectGarbage();
    const after = process.memoryUsage().heapUsed;
    steady = after >= heap - 1024 ? steady + 1 : 0;
    heap = Math.min(heap, after);
  }
  return heap;
}
