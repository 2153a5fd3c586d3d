export type { AttemptEvents, EventReader, OpenedAttempt } from './attempt-chunks.js';
export type { AttemptControls, ModelCall, ModelCallSettings } from './stream-model-call.js';
export { streamModelCall } from './stream-model-call.js';
export { RELEASE_GRACE_MS, releaseGraceMs, type SdkEventStream, untilComplete } from './until-complete.js';
