// The packages' exported names are the ones recorded in scripts/public-surface.json.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { publicSurface, SURFACE_FILE } from './public-surface.mjs';

test('every package exports exactly the names recorded in scripts/public-surface.json', () => {
  const recorded = JSON.parse(readFileSync(SURFACE_FILE, 'utf8'));
  const actual = publicSurface();
  const changes = [];
  for (const entry of new Set([...Object.keys(recorded), ...Object.keys(actual)])) {
    const before = new Set(recorded[entry] ?? []);
    const after = new Set(actual[entry] ?? []);
    for (const name of after) if (!before.has(name)) changes.push(`+ ${entry}: ${name}`);
    for (const name of before) if (!after.has(name)) changes.push(`- ${entry}: ${name}`);
  }
  assert.deepEqual(
    changes,
    [],
    'The public surface changed. If that is deliberate, run `node scripts/public-surface.mjs --write` and say why in the commit.',
  );
});
