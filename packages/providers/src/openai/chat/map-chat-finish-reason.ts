import type { FinishReason } from '@agentloop/spec';

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
  length: 'length',
  content_filter: 'content-filter',
};

/** The contract's finish reason for a Chat Completions `finish_reason`; `other` for one it does not know. */
export function mapChatFinishReason(finishReason: string): FinishReason {
  return FINISH_REASONS[finishReason] ?? 'other';
}
