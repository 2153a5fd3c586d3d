import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
const STATIC_IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm;

/** The bare specifiers a module loads when it is imported: its static imports, followed through the package. */
function staticDependencies(entry: string): Set<string> {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const statement = match[0];
      const specifier = match[1] ?? match[2] ?? '';
      // Type-only imports are erased from the JavaScript.
      if (/^\s*(?:import|export)\s+type\s/.test(statement)) continue;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else bare.add(specifier);
    }
  };
  visit(resolve(SRC, entry));
  return bare;
}

const loads = (dependencies: Set<string>, sdk: RegExp) => [...dependencies].filter((specifier) => sdk.test(specifier));

describe('one module per vendor', () => {
  it('@agentloop/providers/anthropic never loads the openai SDK', () => {
    const dependencies = staticDependencies('anthropic/index.ts');
    expect(loads(dependencies, /^@anthropic-ai\/sdk/)).not.toEqual([]);
    expect(loads(dependencies, /^openai/)).toEqual([]);
  });

  it('@agentloop/providers/openai never loads the Anthropic SDK', () => {
    const dependencies = staticDependencies('openai/index.ts');
    expect(loads(dependencies, /^openai/)).not.toEqual([]);
    expect(loads(dependencies, /^@anthropic-ai\/sdk/)).toEqual([]);
  });

  it("@agentloop/providers/google loads only Google's SDK, and the other vendors' modules never load it", () => {
    const dependencies = staticDependencies('google/index.ts');
    expect(loads(dependencies, /^@google\/genai/)).not.toEqual([]);
    expect(loads(dependencies, /^(?:openai|@anthropic-ai\/sdk)/)).toEqual([]);
    for (const entry of ['anthropic/index.ts', 'openai/index.ts'])
      expect(loads(staticDependencies(entry), /^@google\/genai/), entry).toEqual([]);
  });

  it('the root entry loads no SDK until createProvider is called', () => {
    const dependencies = staticDependencies('index.ts');
    expect(loads(dependencies, /^(?:openai|@anthropic-ai\/sdk|@google\/genai)/)).toEqual([]);
    // A provider stands on the contracts and the provider helpers, never on the agent.
    const ours = [...dependencies].filter((specifier) => specifier.startsWith('@agentloop/'));
    expect(ours).toContain('@agentloop/spec');
    expect(ours.filter((specifier) => !['@agentloop/spec', '@agentloop/provider-utils'].includes(specifier))).toEqual(
      [],
    );
  });
});
