import type { ToolDefinition } from '@agentloop/spec';

/** How tools reach the model. */
export type ToolProtocol = 'native' | 'xml';

/** What a prompt is built for. */
export interface PromptContext {
  /** The tools the agent offers, in registry order. */
  tools: readonly ToolDefinition[];
  /** How tools reach the model: in the API request (`native`) or described in the prompt (`xml`). */
  protocol: ToolProtocol;
  /** The provider's id, e.g. `anthropic`. */
  provider?: string;
  /** The model id. */
  model?: string;
  /** Guidance for this model from its provider's model table (`capabilities.instructions`); absent: none. */
  modelInstructions?: string;
}

/** One section of the system prompt. Returning undefined or '' leaves the section out. */
export interface PromptSection {
  /** A unique id, so sections can be replaced or removed by id. */
  readonly id: string;
  /** Renders the section for a context. */
  render(context: PromptContext): string | undefined;
}
