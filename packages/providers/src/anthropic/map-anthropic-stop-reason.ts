import type { FinishReason } from '@agentloop/spec';

const FINISH_REASONS: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  tool_use: 'tool-calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  stop_sequence: 'stop-sequence',
  refusal: 'refusal',
  pause_turn: 'pause',
};

/** The contract's finish reason for an Anthropic `stop_reason`; `other` for one it does not know. */
export function mapAnthropicStopReason(stopReason: string | null | undefined): FinishReason {
  return FINISH_REASONS[stopReason ?? ''] ?? 'other';
}
