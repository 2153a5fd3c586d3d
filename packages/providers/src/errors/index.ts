export type { ApiErrorBody } from './api-error-body.js';
export { readApiErrorBody } from './api-error-body.js';
export { invalidResponse, isJsonObject, jsonKind } from './invalid-response.js';
export { modelNotConfigured } from './model-not-configured.js';
export type { ApiErrorResponse } from './provider-error-from-response.js';
export { providerErrorFromResponse } from './provider-error-from-response.js';
export type { SdkErrorClasses } from './provider-error-from-sdk.js';
export { providerErrorFromSdk } from './provider-error-from-sdk.js';
export type { TransportStage } from './provider-error-from-transport.js';
export {
  isTransportFailure,
  providerErrorFromThrown,
  providerErrorFromTransport,
} from './provider-error-from-transport.js';
export type { ErrorSource } from './provider-label.js';
export { capitalized, providerLabel, serverAt, shownURL } from './provider-label.js';
export { providerNotConfigured } from './provider-not-configured.js';
export type { HeaderLookup } from './retry-after.js';
export { retryAfterMs, shouldRetryHeader } from './retry-after.js';
