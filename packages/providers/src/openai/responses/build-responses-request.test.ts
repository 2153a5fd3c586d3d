import type { ModelRequest } from '@agentloop/spec';
import { describe, expect, it } from 'vitest';
import { findModelInfo } from '../../models/index.js';
import { modelRequest, WEATHER_TOOL } from '../../test-support/index.js';
import { buildResponsesRequest } from './build-responses-request.js';

const build = (model: string, request: Partial<ModelRequest>) =>
  buildResponsesRequest(modelRequest(request), { model, modelInfo: findModelInfo(model) });

describe('buildResponsesRequest parallel_tool_calls', () => {
  it('sends parallel_tool_calls false when the request turns parallel calls off', () => {
    const body = build('gpt-5', { tools: [WEATHER_TOOL], toolChoice: 'required', parallelToolCalls: false });
    expect(body.parallel_tool_calls).toBe(false);
  });

  it('leaves it out by default, without tools, and for the o-series models that reject it', () => {
    expect(build('gpt-5', { tools: [WEATHER_TOOL], toolChoice: 'required' })).not.toHaveProperty('parallel_tool_calls');
    expect(build('gpt-5', { parallelToolCalls: false })).not.toHaveProperty('parallel_tool_calls');
    expect(
      build('o4-mini', { tools: [WEATHER_TOOL], toolChoice: 'auto', parallelToolCalls: false }),
    ).not.toHaveProperty('parallel_tool_calls');
  });
});
