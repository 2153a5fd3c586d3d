export type { ModelCall, ModelCallSettings } from './stream-model-call.js';
export { streamModelCall } from './stream-model-call.js';
