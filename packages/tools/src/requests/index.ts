export type {
  ElicitationFormRequest,
  ElicitationRequest,
  ElicitationResult,
  ElicitationUrlRequest,
  ElicitationValue,
} from './elicitation.js';
export type {
  SamplingMessage,
  SamplingModelPreferences,
  SamplingRequest,
  SamplingResult,
  SamplingStopReason,
} from './sampling.js';
