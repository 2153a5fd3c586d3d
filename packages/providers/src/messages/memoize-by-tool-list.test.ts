import type { ToolDefinition } from '@agentloop/spec';
import { describe, expect, it, vi } from 'vitest';
import { buildAnthropicRequest } from '../anthropic/build-anthropic-request.js';
import { findModelInfo } from '../models/index.js';
import { modelRequest, WEATHER_TOOL } from '../test-support/index.js';
import { memoizeByToolList } from './memoize-by-tool-list.js';

describe('memoizeByToolList', () => {
  it('converts a tool list once however often it is offered, and a new list again', () => {
    const convert = vi.fn((tools: readonly ToolDefinition[]) => tools.map((tool) => tool.name));
    const cached = memoizeByToolList(convert);
    const tools = [WEATHER_TOOL];
    expect(cached(tools)).toBe(cached(tools));
    expect(convert).toHaveBeenCalledOnce();
    expect(cached([WEATHER_TOOL, { ...WEATHER_TOOL, name: 'other' }])).toEqual(['get_weather', 'other']);
    expect(convert).toHaveBeenCalledTimes(2);
  });

  it('keeps the cached Anthropic tools free of the cache breakpoint one request adds', () => {
    const tools = [WEATHER_TOOL];
    const settings = { model: 'claude-sonnet-4-5', modelInfo: findModelInfo('claude-sonnet-4-5') };
    const cached = buildAnthropicRequest(modelRequest({ tools }), { ...settings, promptCaching: true });
    expect(cached.tools?.at(-1)).toHaveProperty('cache_control');
    const plain = buildAnthropicRequest(modelRequest({ tools }), { ...settings, promptCaching: false });
    expect(plain.tools?.at(-1)).not.toHaveProperty('cache_control');
  });
});
