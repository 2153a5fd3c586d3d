import type { LLMProvider } from '@agentloop/spec';
import type { ToolProtocolOption } from '../agent/agent-options.js';
import { resolveToolProtocol } from './resolve-tool-protocol.js';
import type { ToolProtocolAdapter } from './tool-protocol.js';

/** What a run starts from. */
export interface RunControlInit {
  provider: LLMProvider;
  toolProtocol: ToolProtocolOption;
  /** True when an earlier run already switched the session to XML. */
  xmlFallback: boolean;
  /** The agent's input queue, shared: what is queued after the run ends goes with the next run. */
  queuedInput: string[];
  signal: AbortSignal;
}

/**
 * The state of one run that both sides change while it goes on: the agent writes what the user changes
 * (provider, tool protocol, queued input), the loop reads it at each model call and records what it
 * decided (the switch to XML, that the run has settled). One object the loop owns for the run's length,
 * instead of closures back into the agent.
 */
export class RunControl {
  /** The provider of the next model call (it can be switched mid-run). */
  provider: LLMProvider;
  /** The configured tool protocol. */
  toolProtocol: ToolProtocolOption;
  /** Set when a server rejected native tools under `auto`: the session goes on in XML. */
  xmlFallback: boolean;
  readonly queuedInput: string[];
  readonly signal: AbortSignal;
  /** True once the run's outcome is known, just before `loop-end`: a listener may start the next run. */
  settled = false;

  constructor(init: RunControlInit) {
    this.provider = init.provider;
    this.toolProtocol = init.toolProtocol;
    this.xmlFallback = init.xmlFallback;
    this.queuedInput = init.queuedInput;
    this.signal = init.signal;
  }

  /** The protocol adapter of the next model call. */
  resolveProtocol(): ToolProtocolAdapter {
    return resolveToolProtocol(this.xmlFallback ? 'xml' : this.toolProtocol, this.provider);
  }

  /** Switches the session to XML after the server rejected native tools; false where that is not allowed. */
  fallBackToXml(): boolean {
    if (this.toolProtocol !== 'auto') return false;
    this.xmlFallback = true;
    return true;
  }

  /** Takes the input queued since the last model call. */
  takeQueuedInput(): string[] {
    return this.queuedInput.splice(0);
  }
}
