import type { ModelRequest } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { findModelInfo } from '../../models/index.js';
import { modelRequest, WEATHER_TOOL } from '../../test-support/index.js';
import { buildChatRequest } from './build-chat-request.js';

const build = (model: string, request: Partial<ModelRequest>) =>
  buildChatRequest(modelRequest(request), {
    model,
    modelInfo: findModelInfo(model),
    compatible: false,
    sendReasoning: false,
  });

describe('buildChatRequest parallel_tool_calls', () => {
  it('sends parallel_tool_calls false when the request turns parallel calls off', () => {
    const body = build('gpt-4.1', { tools: [WEATHER_TOOL], toolChoice: 'required', parallelToolCalls: false });
    expect(body.parallel_tool_calls).toBe(false);
    expect(body.tool_choice).toBe('required');
  });

  it('leaves it out by default, and without tools, where the API rejects it', () => {
    expect(build('gpt-4.1', { tools: [WEATHER_TOOL], toolChoice: 'required' })).not.toHaveProperty(
      'parallel_tool_calls',
    );
    expect(build('gpt-4.1', { parallelToolCalls: false })).not.toHaveProperty('parallel_tool_calls');
  });

  it.each(['o1', 'o3-mini', 'o4-mini-2025-04-16', 'openai/o3'])(
    'leaves it out for %s, which rejects the parameter',
    (model) => {
      expect(
        build(model, { tools: [WEATHER_TOOL], toolChoice: 'required', parallelToolCalls: false }),
      ).not.toHaveProperty('parallel_tool_calls');
    },
  );
});
