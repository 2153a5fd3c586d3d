import { describe, expect, it } from 'vitest';
import { unknownModelNote } from './unknown-model-note.js';

const base = { modelId: 'qwen3:8b', nativeTools: true, stopSequences: true, reasoning: false };

describe('unknownModelNote', () => {
  it('says what a model the table does not know runs with, and how to describe it', () => {
    expect(unknownModelNote({ ...base, parallelToolCalls: false, contextWindow: 32_768, editTool: 'edit_file' })).toBe(
      'model "qwen3:8b" is not in agentloop\'s model table; it runs with: context window 32768 tokens, one tool call per response, edit_file to change files, no price, so no cost is shown. Describe it with a [models."qwen3:8b"] table in the configuration (context_window, input_price, output_price, parallel_tool_calls, edit_tool).',
    );
  });

  it("shows the configuration's settings for it, and says nothing of a known model", () => {
    const configured = unknownModelNote({
      ...base,
      parallelToolCalls: true,
      contextWindow: 40_960,
      editTool: 'apply_patch',
      pricing: { inputUsdPerMillion: 0.1, outputUsdPerMillion: 0.3 },
    });
    expect(configured).toContain(
      'context window 40960 tokens, several tool calls per response, apply_patch to change files, $0.1 in / $0.3 out per million tokens.',
    );
    expect(unknownModelNote({ ...base, parallelToolCalls: true, contextWindow: 200_000, family: 'claude' })).toBe(
      undefined,
    );
  });
});
