import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The loop is a plain function with its dependencies passed in, wrapped by the agent: the agent imports the
// loop, never the other way round, so that the loop can be read (and run, by a durable executor) alone.
describe('the loop folder', () => {
  it('imports nothing from the agent folder', () => {
    const folder = new URL('./', import.meta.url);
    const sources = readdirSync(folder).filter((name) => name.endsWith('.ts') && !/\.test(-d)?\.ts$/.test(name));
    expect(sources.length).toBeGreaterThan(10);
    const offending = sources.filter((name) => /from '\.\.\/agent\//.test(readFileSync(new URL(name, folder), 'utf8')));
    expect(offending).toEqual([]);
  });
});
