export { applySchemaDefaults } from './apply-schema-defaults.js';
export { type ElicitationCall, ElicitationDesk } from './elicitation-desk.js';
export { sampleModel } from './sample-model.js';
export type { SamplingSpend } from './sampling-spend.js';
export { type ToolRequestsCall, type ToolRequestsHost, toolRequests } from './tool-requests.js';
