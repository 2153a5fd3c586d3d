import { DirectJournal } from './direct-journal.js';
import type { Journal } from './journal.js';

/** How one effect is run as a journal step: what it records of its result, and how a replay gets it back. */
export interface JournaledStep<Live, Recorded> {
  /** The step's name, stable across replays and unique within the run. */
  readonly name: string;
  /** The effect. What it throws is the loop's to handle: effects catch their final failures themselves. */
  run(): Promise<Live>;
  /** What the journal keeps of the result, as JSON. */
  record(live: Live): Recorded;
  /** The result again, from what the journal kept, for a replayed run. */
  restore(recorded: Recorded): Live;
}

/**
 * Runs an effect as a journal step. When it runs in this process, the loop goes on with its result as it
 * is (an error with its cause, a tool's value); only a replay reads the record. The default journal
 * records nothing, so for it the effect just runs, and nothing is built to record.
 */
export function runJournaled<Live, Recorded>(journal: Journal, step: JournaledStep<Live, Recorded>): Promise<Live> {
  // Not an async function: the default journal's effect is awaited once, not twice.
  return journal instanceof DirectJournal ? step.run() : recordedStep(journal, step);
}

async function recordedStep<Live, Recorded>(journal: Journal, step: JournaledStep<Live, Recorded>): Promise<Live> {
  let live: { value: Live } | undefined;
  const recorded = await journal.step(step.name, async () => {
    const value = await step.run();
    live = { value };
    return step.record(value);
  });
  return live ? live.value : step.restore(recorded);
}
