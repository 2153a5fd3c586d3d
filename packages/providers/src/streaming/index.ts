export { RELEASE_GRACE_MS, releaseGraceMs } from './drain-in-background.js';
export type { AttemptEvents, EventReader, OpenedAttempt } from './event-reader.js';
export type { ProviderCallOptions } from './model-call-settings.js';
export { modelCallSettings } from './model-call-settings.js';
export type { AttemptControls, ModelCall, ModelCallSettings } from './stream-model-call.js';
export { streamModelCall } from './stream-model-call.js';
