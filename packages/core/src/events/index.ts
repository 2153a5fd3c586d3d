export type { AgentEvent, AgentEventListener, AgentEventMap, AgentEventName } from './agent-events.js';
export { AgentEventBus } from './event-bus.js';
