import { describe, expect, it } from 'vitest';
import { MemoryTokenStore } from './mcp-token-store.js';

describe('MemoryTokenStore', () => {
  it("runs one server's refreshes one at a time, and another server's beside them", async () => {
    const store = new MemoryTokenStore();
    const steps: string[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const first = store.withLock('https://a.example.com/mcp', async () => {
      steps.push('a1 start');
      await firstHeld;
      steps.push('a1 end');
    });
    const second = store.withLock('https://a.example.com/mcp', async () => {
      steps.push('a2');
    });
    await store.withLock('https://b.example.com/mcp', async () => {
      steps.push('b');
    });
    releaseFirst();
    await Promise.all([first, second]);
    expect(steps).toEqual(['a1 start', 'b', 'a1 end', 'a2']);
  });

  it('goes on with the next work after one that failed', async () => {
    const store = new MemoryTokenStore();
    const failed = store.withLock('https://a.example.com/mcp', async () => {
      throw new Error('refused');
    });
    await expect(failed).rejects.toThrow('refused');
    expect(await store.withLock('https://a.example.com/mcp', async () => 'next')).toBe('next');
  });
});
