import { runToolCall, ToolRegistry } from '@agentloop/tools';
import { describe, expect, it } from 'vitest';
import weatherPlugin, { createWeatherTools } from './index.js';

const context = {
  signal: new AbortController().signal,
  sessionId: 's',
  workspace: '/',
  toolCallId: 't',
  reportProgress: () => {},
};

describe('weather-tools package', () => {
  it('provides its tools under the agentloop tool token', () => {
    const registered: Array<[symbol, unknown]> = [];
    weatherPlugin.register({ register: (token, factory) => registered.push([token, factory()]) });
    expect(registered.map(([token]) => token)).toEqual([Symbol.for('agentloop.Tool'), Symbol.for('agentloop.Tool')]);
    expect(registered.map(([, tool]) => (tool as { name: string }).name)).toEqual([
      'current_weather',
      'convert_temperature',
    ]);
  });

  it('answers for a known city and explains an unknown one', async () => {
    const registry = new ToolRegistry(createWeatherTools());
    const known = await runToolCall(
      registry,
      { toolCallId: '1', toolName: 'current_weather', arguments: { city: 'Oslo' } },
      context,
    );
    expect(known).toMatchObject({ status: 'ok', value: { city: 'Oslo', temperatureC: -3, conditions: 'snow' } });
    const unknown = await runToolCall(
      registry,
      { toolCallId: '2', toolName: 'current_weather', arguments: { city: 'Atlantis' } },
      context,
    );
    expect(unknown).toMatchObject({
      status: 'error',
      code: 'tool_failed',
      content: expect.stringContaining('Known cities: Oslo, Lisbon, Tokyo'),
    });
  });

  it('converts temperatures both ways', async () => {
    const registry = new ToolRegistry(createWeatherTools());
    const toF = await runToolCall(
      registry,
      { toolCallId: '1', toolName: 'convert_temperature', arguments: { value: 100, to: 'fahrenheit' } },
      context,
    );
    expect(toF).toMatchObject({ status: 'ok', value: 212 });
  });
});
