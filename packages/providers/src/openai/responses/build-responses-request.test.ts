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

describe('buildResponsesRequest apply_patch', () => {
  const APPLY_PATCH_TOOL = {
    name: 'apply_patch',
    description: 'Change workspace files with a patch',
    inputSchema: { type: 'object', properties: { patch: { type: 'string' } }, required: ['patch'] },
  };

  it("sends the API's own apply_patch tool in place of the function for a model that has it", () => {
    const body = build('gpt-5.1-codex-max', { tools: [WEATHER_TOOL, APPLY_PATCH_TOOL], toolChoice: 'required' });
    expect(body.tools?.map((tool) => (tool.type === 'function' ? tool.name : tool.type))).toEqual([
      'get_weather',
      'apply_patch',
    ]);
    expect(body.tools?.[1]).toEqual({ type: 'apply_patch' });
  });

  it('sends the function for a model without it, and for an apply_patch tool that takes no patch', () => {
    const forGpt5 = build('gpt-5', { tools: [APPLY_PATCH_TOOL], toolChoice: 'required' });
    expect(forGpt5.tools?.[0]).toMatchObject({ type: 'function', name: 'apply_patch' });
    const ownTool = { ...APPLY_PATCH_TOOL, inputSchema: { type: 'object', properties: { diff: { type: 'string' } } } };
    const forGpt51 = build('gpt-5.1', { tools: [ownTool], toolChoice: 'required' });
    expect(forGpt51.tools?.[0]).toMatchObject({ type: 'function', name: 'apply_patch' });
  });
});
