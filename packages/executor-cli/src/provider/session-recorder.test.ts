import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LLMProvider, ModelChunk } from '@agentloop/core';
import { DefaultAgent } from '@agentloop/core';
import { recordProvider, replayProvider, ScriptedProvider } from '@agentloop/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionRecorder, SessionRecorder } from './session-recorder.js';

let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'agentloop-record-'));
});

afterEach(() => rmSync(directory, { recursive: true, force: true }));

const converse = (message: string) => ({ toolCalls: [{ name: 'converse', arguments: { message } }] });
const scripted = (id: string, modelId: string, message: string) =>
  new ScriptedProvider([converse(message)], { id, capabilities: { modelId } });

function cassetteLines(file: string): { type: string; turn?: number; provider?: { id: string } }[] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('SessionRecorder', () => {
  it('records the calls of every provider it is given into one cassette, each sent to its own provider', async () => {
    const file = join(directory, 'session.jsonl');
    const recorder = new SessionRecorder({ file, secrets: [], recordProvider });
    const first = scripted('local', 'model-a', 'From A.');
    const agent = new DefaultAgent(recorder.record(first));
    expect((await agent.run('hello')).payload).toEqual({ message: 'From A.' });
    // A /model switch: the new provider records into the same file, which is not emptied.
    const second = scripted('anthropic', 'model-b', 'From B.');
    const recorded = recorder.record(second);
    expect(recorded.id).toBe('anthropic');
    expect(recorded.capabilities.modelId).toBe('model-b');
    agent.setProvider(recorded);
    expect((await agent.run('again')).payload).toEqual({ message: 'From B.' });
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(1);

    const lines = cassetteLines(file);
    expect(lines[0]).toMatchObject({ type: 'cassette', provider: { id: 'local' } });
    expect(lines.filter((line) => line.type === 'request').map((line) => line.turn)).toEqual([1, 2]);
    // The whole session replays in order. The header names the first provider; from the switch on, the
    // replay is seen through the second one's id and model, which the system prompt names.
    const replay = replayProvider(file);
    const replayed = new DefaultAgent(replay);
    expect((await replayed.run('hello')).payload).toEqual({ message: 'From A.' });
    replayed.setProvider({
      specificationVersion: 'v2',
      id: second.id,
      capabilities: second.capabilities,
      stream: (request) => replay.stream(request),
    });
    expect((await replayed.run('again')).payload).toEqual({ message: 'From B.' });
    replay.assertComplete();
  });

  it('redacts the secrets it is given from the cassette', async () => {
    const file = join(directory, 'session.jsonl');
    const secret = 'my-server-password-1234';
    const recorder = new SessionRecorder({ file, secrets: [secret], recordProvider });
    const echo: LLMProvider = {
      specificationVersion: 'v2',
      id: 'local',
      capabilities: scripted('local', 'model-a', '').capabilities,
      async *stream(): AsyncIterable<readonly ModelChunk[]> {
        yield [
          { type: 'text-delta', text: `The server said: bad password ${secret}` },
          { type: 'finish', reason: 'stop' },
        ];
      },
    };
    await new DefaultAgent(recorder.record(echo), { maxIterations: 1, onMaxIterations: 'stop' }).run(
      `my password is ${secret}`,
    );
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('bad password [REDACTED]');
    expect(text).not.toContain(secret);
  });

  // It holds every request and response: file contents, command output. Windows has no such modes.
  it.skipIf(process.platform === 'win32')(
    'writes the cassette 0600 in a folder it makes 0700, and makes one an earlier run left 0644 private',
    async () => {
      const file = join(directory, 'records', 'session.jsonl');
      const recorder = await openSessionRecorder(file, []);
      const agent = new DefaultAgent(recorder.record(scripted('local', 'model-a', 'hi')));
      await agent.run('hello');
      expect(statSync(join(directory, 'records')).mode & 0o777).toBe(0o700);
      expect(statSync(file).mode & 0o777).toBe(0o600);

      const earlier = join(directory, 'earlier.jsonl');
      writeFileSync(earlier, 'an old cassette\n');
      chmodSync(earlier, 0o644);
      (await openSessionRecorder(earlier, [])).record(scripted('local', 'model-a', 'hi'));
      expect(statSync(earlier).mode & 0o777).toBe(0o600);
      expect(cassetteLines(earlier)[0]).toMatchObject({ type: 'cassette' });
    },
  );

  it('says which file cannot be written and what to do, as a setup error', async () => {
    // A file where the cassette's folder should be: no one can write there, root included.
    writeFileSync(join(directory, 'notes.txt'), 'a file\n');
    const file = join(directory, 'notes.txt', 'session.jsonl');
    const recorder = await openSessionRecorder(file, []);
    expect(() => recorder.record(scripted('local', 'model-a', 'hi'))).toThrow(
      expect.objectContaining({
        code: 'invalid_record_file',
        message: expect.stringMatching(
          /^--record .*\/notes\.txt\/session\.jsonl: the cassette cannot be written \((EEXIST|ENOTDIR): .*\)\. Give a file in a folder you can write to\.$/,
        ),
      }),
    );
  });
});
