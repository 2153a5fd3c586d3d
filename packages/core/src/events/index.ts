export type {
  AgentEvent,
  AgentEventEnvelope,
  AgentEventListener,
  AgentEventMap,
  AgentEventName,
  AgentEventPayloads,
  SubagentStep,
} from './agent-events.js';
export { AgentEventBus, type AgentEventSink } from './event-bus.js';
