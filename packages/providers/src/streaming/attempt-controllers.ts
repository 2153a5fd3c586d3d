/** An attempt's AbortController, lent out by acquireController. */
export interface LentController {
  readonly controller: AbortController;
  uses: number;
}

/** Attempts one controller serves at most: the OpenAI SDK never removes the listener it adds to a signal. */
export const MAX_CONTROLLER_USES = 8;
const MAX_FREE = 32;
const free: LentController[] = [];

/**
 * An AbortController for one attempt, which has it to itself until it gives it back.
 *
 * What the profile showed: creating an AbortSignal is costly in Node 20 (createAbortSignal and
 * makeTransferable stood out in the agent's profile; under callgrind, a bare Anthropic SDK call that also
 * made one signal took about 140k more instructions, against about 1.6M for the call), and each attempt
 * needs a signal of its own to give the SDK. A controller that was never aborted is therefore
 * used again by later attempts, one at a time, so that aborting it still cuts only its own request; at
 * most MAX_CONTROLLER_USES times, since the OpenAI SDK leaves one listener on the signal per request (and
 * Node warns past ten).
 */
export function acquireController(): LentController {
  for (let lent = free.pop(); lent !== undefined; lent = free.pop()) {
    if (!lent.controller.signal.aborted) {
      lent.uses++;
      return lent;
    }
  }
  return { controller: new AbortController(), uses: 1 };
}

/** Gives a controller back once its attempt is over: nothing will abort it on that attempt's account. */
export function releaseController(lent: LentController): void {
  if (lent.controller.signal.aborted || lent.uses >= MAX_CONTROLLER_USES || free.length >= MAX_FREE) return;
  free.push(lent);
}
