import { ScriptedProvider } from '@agentloop/core/testing';
import { expect, it } from 'vitest';
import { runPluginApp, script } from './main.js';

it("calls the plugin's tools and completes", async () => {
  const lines: string[] = [];
  const provider = new ScriptedProvider(script);
  const result = await runPluginApp(provider, 'Weather in Lisbon in Fahrenheit?', (line) => lines.push(line));
  expect(result.exit).toBe('task_completion');
  expect(lines).toEqual([
    '→ current_weather {"city":"Lisbon"}',
    '→ convert_temperature {"value":17,"to":"fahrenheit"}',
    '→ task_completion {"result":"Lisbon: sunny, 17 °C (62.6 °F)."}',
    'Lisbon: sunny, 17 °C (62.6 °F).',
  ]);
  expect(provider.requests[1]?.messages.at(-1)).toMatchObject({
    role: 'tool',
    content: [{ content: '{"city":"Lisbon","temperatureC":17,"conditions":"sunny"}' }],
  });
  expect(provider.requests[2]?.messages.at(-1)).toMatchObject({ content: [{ content: '62.6' }] });
  provider.assertDone();
});
