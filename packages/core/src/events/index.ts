export type {
  AgentEvent,
  AgentEventListener,
  AgentEventMap,
  AgentEventName,
  SubagentStep,
} from './agent-events.js';
export { AgentEventBus } from './event-bus.js';
