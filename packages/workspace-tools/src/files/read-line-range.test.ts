import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLineRange } from './read-line-range.js';

const folder = mkdtempSync(join(tmpdir(), 'agentloop-lines-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
async function read(text: string, request: { startLine: number; endLine?: number; maxBytes: number }) {
  const file = join(folder, `f${files++}`);
  writeFileSync(file, text);
  const handle = await open(file, 'r');
  try {
    return await readLineRange(handle, request);
  } finally {
    await handle.close();
  }
}

// The lines of a text with their line ends, as the reader counts them.
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

describe('readLineRange', () => {
  it('reads a whole file, keeping \\r\\n line ends', async () => {
    expect(await read('one\r\ntwo\r\n', { startLine: 1, maxBytes: 100 })).toEqual({
      text: 'one\r\ntwo\r\n',
      firstLine: 1,
      lastLine: 2,
      totalLines: 2,
      cut: false,
      lineCut: false,
    });
  });

  it('counts a last line without a line end, and none for an empty file', async () => {
    expect((await read('a\nb', { startLine: 1, maxBytes: 100 })).totalLines).toBe(2);
    expect((await read('', { startLine: 1, maxBytes: 100 })).totalLines).toBe(0);
  });

  it('stops at a line end before the cap', async () => {
    const range = await read('aaaa\nbbbb\ncccc\n', { startLine: 1, maxBytes: 12 });
    expect(range).toMatchObject({ text: 'aaaa\nbbbb\n', lastLine: 2, totalLines: 3, cut: true, lineCut: false });
  });

  it('returns the start of a first line longer than the cap', async () => {
    const range = await read(`${'x'.repeat(100)}\nshort\n`, { startLine: 1, maxBytes: 10 });
    expect(range).toMatchObject({ text: 'x'.repeat(10), lastLine: 1, totalLines: 2, cut: true, lineCut: true });
  });

  it('reads lines across the 64 KiB chunks it reads in', async () => {
    const lines = Array.from({ length: 30_000 }, (_, index) => `line ${index + 1}\n`);
    const range = await read(lines.join(''), { startLine: 29_998, maxBytes: 1000 });
    expect(range).toMatchObject({ text: 'line 29998\nline 29999\nline 30000\n', totalLines: 30_000, cut: false });
  });

  it('gives the lines a split would, for any text, range and cap', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('a', 'é', '\n', '\r\n', 'xyz'), { maxLength: 40 }).map((parts) => parts.join('')),
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
        fc.integer({ min: 1, max: 30 }),
        async (text, startLine, length, maxBytes) => {
          const endLine = length === undefined ? undefined : startLine + length;
          const all = linesOf(text);
          const wanted = all.slice(startLine - 1, endLine);
          const expected: string[] = [];
          let bytes = 0;
          for (const line of wanted) {
            if (bytes + Buffer.byteLength(line) > maxBytes) break;
            expected.push(line);
            bytes += Buffer.byteLength(line);
          }
          const range = await read(text, { startLine, endLine, maxBytes });
          expect(range.totalLines).toBe(all.length);
          if (expected.length === 0 && wanted.length > 0) {
            // The first wanted line alone is over the cap: its whole characters within maxBytes.
            expect(range.lineCut).toBe(true);
            let start = '';
            for (const character of wanted[0] as string) {
              if (Buffer.byteLength(start + character) > maxBytes) break;
              start += character;
            }
            expect(range.text).toBe(start);
          } else {
            expect(range.text).toBe(expected.join(''));
            expect(range.cut).toBe(expected.length < wanted.length);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
