export type { PayloadLimits } from './describe-request.js';
export { describeRequest, quote, ResponseSummary } from './describe-request.js';
export { logToolEvents } from './log-tool-events.js';
export { LoggingProvider } from './logging-provider.js';
export type { Redactor } from './redact.js';
export { createRedactor, environmentSecrets, redactUrlCredentials } from './redact.js';
export type { SdkLogFunction, SdkLogger, SdkLoggerOptions } from './sdk-logger.js';
export { createSdkLogger } from './sdk-logger.js';
export { VerboseLog } from './verbose-log.js';
