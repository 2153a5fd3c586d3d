/** The result of a call that a cancel left without one, so the history stays valid for the next run. */
export const CANCELLED_RESULT = 'Not run: the user cancelled the turn.';
