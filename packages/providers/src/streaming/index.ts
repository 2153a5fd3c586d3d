export type { AttemptEvents, EventReader, OpenedAttempt } from './attempt-chunks.js';
export { RELEASE_GRACE_MS, releaseGraceMs } from './drain-in-background.js';
export type { ProviderCallOptions } from './model-call-settings.js';
export { modelCallSettings } from './model-call-settings.js';
export type { AttemptControls, ModelCall, ModelCallSettings } from './stream-model-call.js';
export { streamModelCall } from './stream-model-call.js';
