import type { Tracer } from '@opentelemetry/api';

/** How a DefaultAgent traces its runs with OpenTelemetry; see `AgentOptions.tracing`. */
export interface TracingOptions {
  /**
   * The tracer spans are made with. Default: `trace.getTracer('@agentloop/core')` of the global tracer
   * provider, which is a no-op until the app registers an OpenTelemetry SDK.
   */
  tracer?: Tracer;
  /**
   * Records prompts, model output, tool arguments and tool results on the spans (`gen_ai.input.messages`,
   * `gen_ai.output.messages`, `gen_ai.system_instructions`, `gen_ai.tool.call.arguments`,
   * `gen_ai.tool.call.result`). Default false: they may hold personal data and are large.
   */
  recordContent?: boolean;
  /** The agent's name, as `gen_ai.agent.name` and in the run span's name (`invoke_agent <name>`). */
  agentName?: string;
}

/** `true` for the defaults, or the options; `false` or absent: no tracing, at no cost. */
export type TracingOption = boolean | TracingOptions;
