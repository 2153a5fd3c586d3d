/**
 * Makes the ids of the requests a run waits on (`approval-<runId>-1`, `approval-<runId>-2`, ...). The run
 * id makes them unique across runs: an executor that makes an agent per run, or keeps one for many, and
 * answers by id cannot have a late answer to one run's request taken by another's. The count starts again
 * with each run, and the run id is a journal record, so a replayed run makes the same ids in the same order.
 */
export class RunRequestIds {
  readonly #kind: string;
  #runId: string | undefined;
  #count = 0;

  /** `kind` starts every id: `approval`, `elicitation`. */
  constructor(kind: string) {
    this.#kind = kind;
  }

  /** The next id of the run `runId`; an agent runs one run at a time, so a new run id starts a new count. */
  next(runId: string): string {
    if (runId !== this.#runId) {
      this.#runId = runId;
      this.#count = 0;
    }
    this.#count += 1;
    return `${this.#kind}-${runId}-${this.#count}`;
  }
}
