export type { PayloadLimits } from './describe-request.js';
export { describeRequest, quote, ResponseSummary } from './describe-request.js';
export { logToolEvents } from './log-tool-events.js';
export { LoggingProvider } from './logging-provider.js';
export type { Redactor } from './redact.js';
export { createRedactor, environmentSecrets } from './redact.js';
export { VerboseLog } from './verbose-log.js';
