import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The README's first sample is examples/http-server/src/main.ts, which `npm run typecheck` compiles: this
// test keeps the two the same text, so the sample in the README compiles as written.
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = readFileSync(new URL('../../../examples/http-server/src/main.ts', import.meta.url), 'utf8');

describe('the README', () => {
  it('shows as its first sample the example that CI compiles', () => {
    const firstSample = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(firstSample).toBe(example);
  });
});
