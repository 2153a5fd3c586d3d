import { describe, expect, it } from 'vitest';
import { CappedOutput } from './capped-output.js';

function output(maxBytes: number, ...chunks: string[]): CappedOutput {
  const capped = new CappedOutput(maxBytes);
  for (const chunk of chunks) capped.push(Buffer.from(chunk));
  return capped;
}

describe('CappedOutput', () => {
  it('keeps output under the cap whole', () => {
    expect(output(100, 'hello ', 'world\n').text()).toBe('hello world\n');
  });

  it('keeps the head and the tail of longer output and says how much was cut', () => {
    const capped = output(10, '12345', 'abcdefghij', 'vwxyz');
    expect(capped.totalBytes).toBe(20);
    expect(capped.text()).toBe('12345\n[... 10 bytes of output cut here ...]\nvwxyz');
  });

  it('keeps the tail right when it arrives in many small chunks', () => {
    const capped = output(4, ...'abcdefghij'.split(''));
    expect(capped.text()).toBe('ab\n[... 6 bytes of output cut here ...]\nij');
  });

  it('holds no more than the cap, however much is written', () => {
    const capped = new CappedOutput(64);
    const chunk = Buffer.alloc(1024, 'x');
    for (let index = 0; index < 10_000; index += 1) capped.push(chunk);
    expect(capped.totalBytes).toBe(10_240_000);
    expect(capped.text()).toBe(`${'x'.repeat(32)}\n[... 10239936 bytes of output cut here ...]\n${'x'.repeat(32)}`);
  });

  it('starts a cut tail at a whole character', () => {
    expect(output(6, 'abc', 'ééé').text()).toBe('abc\n[... 3 bytes of output cut here ...]\né');
  });

  it('removes terminal colours and shows a line rewritten with \\r as it ended', () => {
    expect(output(1000, '\u001b[32mPASS\u001b[39m test\n', 'progress 10%\rprogress 100%\r\n', 'done\n').text()).toBe(
      'PASS test\nprogress 100%\ndone\n',
    );
  });
});
