import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ANTHROPIC_MODEL } from './default-model.js';

const root = join(import.meta.dirname, '../../../..');

/** The repository's READMEs a reader copies samples from: the root's, each package's and each example's. */
function readmes(): string[] {
  const inFolders = ['packages', 'examples'].flatMap((folder) =>
    readdirSync(join(root, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(folder, entry.name, 'README.md')),
  );
  return ['README.md', ...inFolders].filter((path) => existsSync(join(root, path)));
}

describe('the default Claude model', () => {
  it('is the one every README sample constructs a provider with', () => {
    const samples = readmes().flatMap((path) =>
      [...readFileSync(join(root, path), 'utf8').matchAll(/AnthropicProvider\(\{ model: '([^']+)'/g)].map(
        (match) => `${path}: ${match[1]}`,
      ),
    );
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.filter((sample) => !sample.endsWith(`: ${DEFAULT_ANTHROPIC_MODEL}`))).toEqual([]);
  });
});
