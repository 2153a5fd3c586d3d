export type { ProviderFactory, ProviderFactoryOptions } from './create-provider.js';
export { createProvider, createProviderFactory } from './create-provider.js';
export type { ModelSwitcher, ModelSwitcherOptions } from './model-switcher.js';
export { createModelSwitcher } from './model-switcher.js';
export {
  COMPATIBLE_PROVIDER_NAME,
  isCompatibleServer,
  providerLabel,
  requestLabel,
  shownProviderName,
} from './provider-label.js';
export { configuredModelReferences, samplingModels } from './sampling-models.js';
export type { RecordProviderFunction, SessionRecorderOptions } from './session-recorder.js';
export { openSessionRecorder, SessionRecorder } from './session-recorder.js';
export { unknownModelNote } from './unknown-model-note.js';
