// Attribute names of the OpenTelemetry semantic conventions for generative AI (development status,
// checked against semantic-conventions-genai in 2026: gen-ai-spans.md and gen-ai-agent-spans.md), and the
// few agentloop adds under its own namespace. Kept here rather than taken from
// @opentelemetry/semantic-conventions, whose GenAI names live in an unstable entry point that may change
// without a major version, and which would be a second runtime dependency.

export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestTemperature: 'gen_ai.request.temperature',
  requestTopP: 'gen_ai.request.top_p',
  requestStopSequences: 'gen_ai.request.stop_sequences',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  responseTimeToFirstChunk: 'gen_ai.response.time_to_first_chunk',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  usageCacheCreationInputTokens: 'gen_ai.usage.cache_creation.input_tokens',
  usageReasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  systemInstructions: 'gen_ai.system_instructions',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  errorType: 'error.type',
} as const;

export const AGENTLOOP = {
  runId: 'agentloop.run.id',
  exit: 'agentloop.run.exit',
  iterations: 'agentloop.run.iterations',
  iteration: 'agentloop.iteration',
  toolProtocol: 'agentloop.tool_protocol',
  retry: 'agentloop.retry',
  retryAttempt: 'agentloop.retry.attempt',
  retryDelayMs: 'agentloop.retry.delay_ms',
} as const;

/**
 * The `gen_ai.provider.name` of a provider id: the conventions' well-known value where there is one
 * (every OpenAI API flavour is `openai`), the id itself otherwise.
 */
export function genAiProviderName(providerId: string): string {
  if (providerId === 'anthropic') return 'anthropic';
  if (providerId === 'openai' || providerId.startsWith('openai-')) return 'openai';
  return providerId;
}
