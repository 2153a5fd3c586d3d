import type { FinishReason, LLMProvider, Message, ModelRequest, Usage } from '@agentloop/spec';
import { addUsage, emptyUsage, ProviderError, userMessage } from '@agentloop/spec';
import type { SamplingRequest, SamplingResult, SamplingStopReason } from '@agentloop/tools';
import { abortable } from '../loop/abortable-stream.js';
import type { SamplingSpend } from './sampling-spend.js';

/** Where sampleModel reports what the call spent, and the clock it measures the call's time with. */
export interface SamplingMeter {
  /** Called once per call that used tokens, also when it then failed: those tokens were paid for. */
  spent(spend: SamplingSpend): void;
  now(): number;
}

/**
 * Runs a tool's sampling request as one model call without tools: its messages, its system prompt (none
 * when it gives none: the agent's own prompt is not the asker's), its maxTokens, temperature and stop
 * sequences. Resolves with the text, the model's id and why it stopped; rejects with what the provider
 * threw, or a ProviderError when the stream ended without finishing. The tokens it used go to `meter`.
 */
export async function sampleModel(
  provider: LLMProvider,
  request: SamplingRequest,
  signal: AbortSignal,
  meter: SamplingMeter,
): Promise<SamplingResult> {
  const modelRequest: ModelRequest = {
    systemPrompt: request.systemPrompt ?? '',
    messages: request.messages.map(toMessage),
    tools: [],
    toolChoice: 'none',
    settings: {
      maxTokens: request.maxTokens,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    },
    ...(request.stopSequences && request.stopSequences.length > 0 ? { stopSequences: request.stopSequences } : {}),
    signal,
  };
  let text = '';
  let finishReason: FinishReason | undefined;
  // A discarded attempt's tokens were paid for as well: usage is not reset on a retry.
  let usage: Usage = emptyUsage();
  const started = meter.now();
  try {
    for await (const batch of abortable(provider.stream(modelRequest), signal)) {
      for (const chunk of batch) {
        if (chunk.type === 'text-delta') text += chunk.text;
        else if (chunk.type === 'retry' && chunk.discardOutput) text = '';
        else if (chunk.type === 'finish') finishReason = chunk.reason;
        else if (chunk.type === 'usage') usage = addUsage(usage, chunk.usage);
      }
    }
  } finally {
    if (usage.inputTokens + usage.outputTokens > 0) {
      const { pricing } = provider.capabilities;
      meter.spent({
        usage,
        ...(pricing ? { pricing } : {}),
        finishReason: finishReason ?? 'other',
        durationMs: meter.now() - started,
        ...(request.server === undefined ? {} : { server: request.server }),
      });
    }
  }
  if (finishReason === undefined) {
    throw new ProviderError('The sampling stream ended without a finish reason.', {
      code: 'stream_broken',
      provider: provider.id,
    });
  }
  return { text, model: provider.capabilities.modelId, stopReason: toStopReason(finishReason) };
}

function toMessage(message: SamplingRequest['messages'][number]): Message {
  return message.role === 'user'
    ? userMessage(message.text)
    : { role: 'assistant', content: [{ type: 'text', text: message.text }] };
}

function toStopReason(reason: FinishReason): SamplingStopReason {
  if (reason === 'length') return 'maxTokens';
  if (reason === 'stop-sequence') return 'stopSequence';
  return 'endTurn';
}
