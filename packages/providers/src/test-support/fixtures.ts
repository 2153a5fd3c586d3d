import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RecordedExchange } from './responders.js';

const FIXTURES = fileURLToPath(new URL('../__fixtures__/', import.meta.url));

/** The text of a fixture file, by its path under `src/__fixtures__`. */
export function readFixture(path: string): string {
  return readFileSync(FIXTURES + path, 'utf8');
}

/** A fixture's JSON. */
export function readJsonFixture<T = unknown>(path: string): T {
  return JSON.parse(readFixture(path)) as T;
}

/** The recorded exchanges of an anthropic-sdk-python inline snapshot. */
export function readExchanges(path: string): RecordedExchange[] {
  return readJsonFixture<RecordedExchange[]>(path);
}

/** Splits a raw SSE body into its frames, each ending in a blank line. */
export function rawSseFrames(body: string): string[] {
  return body
    .replace(/\r\n/g, '\n')
    .split(/\n\n+/)
    .filter((frame) => frame.trim() !== '')
    .map((frame) => `${frame}\n\n`);
}

/**
 * Frames a vercel-ai `*.chunks.txt` (one `data:` payload per line): Anthropic and OpenAI Responses take the
 * JSON's `type` as the event name; Chat Completions sends bare `data:` lines and a final `[DONE]`.
 */
export function chunkLinesToFrames(lines: readonly string[], api: 'anthropic' | 'responses' | 'chat'): string[] {
  const data = lines.filter((line) => line.trim() !== '');
  if (api === 'chat') return [...data.map((line) => `data: ${line}\n\n`), 'data: [DONE]\n\n'];
  return data.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`);
}

/** The lines of a vercel-ai `*.chunks.txt`. */
export function chunkLines(path: string): string[] {
  return readFixture(path)
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** The SSE frames of a vercel-ai `*.chunks.txt`. */
export function chunkFrames(path: string, api: 'anthropic' | 'responses' | 'chat'): string[] {
  return chunkLinesToFrames(chunkLines(path), api);
}

/** Splits a recording of several Responses API calls (one after another) into one line list per call. */
export function splitResponses(lines: readonly string[]): string[][] {
  const calls: string[][] = [];
  for (const line of lines) {
    if ((JSON.parse(line) as { type: string }).type === 'response.created' || calls.length === 0) calls.push([]);
    calls.at(-1)?.push(line);
  }
  return calls;
}
