/** How `runLimited` schedules its items. */
export interface RunLimitedOptions<Item> {
  /** The most items running at once: a whole number of at least 1, or `Infinity`. */
  limit: number;
  /** Items with the same key never run at the same time; undefined: no such constraint. */
  exclusiveKey?: (item: Item) => string | undefined;
}

/**
 * Runs `work` for each item, starting them in order, with at most `limit` running at once; items that
 * share an exclusive key run one after another, in their order, while others may pass them. Resolves
 * with the results in item order, whatever order they finished in. `work` must not reject (the promise
 * rejects with the first rejection, and items not yet started are then never started).
 */
export function runLimited<Item, Result>(
  items: readonly Item[],
  work: (item: Item) => Promise<Result>,
  options: RunLimitedOptions<Item>,
): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  if (items.length === 0) return Promise.resolve(results);
  const waiting = items.map((item, index) => ({ item, index, key: options.exclusiveKey?.(item) }));
  const busy = new Set<string>();
  let running = 0;
  let failed = false;
  return new Promise((resolve, reject) => {
    const startReady = (): void => {
      for (let position = 0; position < waiting.length && running < options.limit && !failed; ) {
        const next = waiting[position];
        if (!next) break;
        const { item, index, key } = next;
        if (key !== undefined && busy.has(key)) {
          position++;
          continue;
        }
        waiting.splice(position, 1);
        running++;
        if (key !== undefined) busy.add(key);
        work(item).then(
          (result) => {
            results[index] = result;
            running--;
            if (key !== undefined) busy.delete(key);
            if (waiting.length === 0 && running === 0) resolve(results);
            else startReady();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      }
    };
    startReady();
  });
}
