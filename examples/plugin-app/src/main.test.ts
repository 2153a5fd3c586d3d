import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContainer, disposeContainer, resolveAgent } from '@agentloop/core';
import { ScriptedProvider } from '@agentloop/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runPluginApp, script } from './main.js';
import { TranscriptMemory, transcriptMemoryPlugin } from './transcript-memory-plugin.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'plugin-app-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

it("calls the plugin's tools and completes", async () => {
  const lines: string[] = [];
  const provider = new ScriptedProvider(script);
  const transcript = join(directory, 'transcript.jsonl');
  const result = await runPluginApp(
    provider,
    'Weather in Lisbon in Fahrenheit?',
    (line) => lines.push(line),
    transcript,
  );
  expect(result.exit).toBe('task_completion');
  expect(lines).toEqual([
    '> Weather in Lisbon in Fahrenheit?',
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

it('writes every message of the run to the transcript through the memory plugin', async () => {
  const transcript = join(directory, 'transcript.jsonl');
  await runPluginApp(new ScriptedProvider(script), 'Weather in Lisbon?', () => {}, transcript);
  const roles = readFileSync(transcript, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line).role);
  expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool']);
});

it('replaces the default memory, and stops writing once the container is disposed', async () => {
  const transcript = join(directory, 'transcript.jsonl');
  const container = await createContainer({
    provider: new ScriptedProvider([]),
    plugins: [transcriptMemoryPlugin(transcript)],
  });
  const memory = resolveAgent(container).memory;
  expect(memory).toBeInstanceOf(TranscriptMemory);
  memory.append({ role: 'user', content: [{ type: 'text', text: 'kept' }] });
  await disposeContainer(container);
  memory.append({ role: 'user', content: [{ type: 'text', text: 'after dispose' }] });
  expect(readFileSync(transcript, 'utf8')).toBe('{"role":"user","content":[{"type":"text","text":"kept"}]}\n');
});
