export { CallsInFlight } from './calls-in-flight.js';
export { directoryRoot, type McpRoot } from './mcp-root.js';
export { type ServerRequestsOptions, serveServerRequests } from './serve-server-requests.js';
