// fetchNode22's failure says what failed and what it needs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fetchNode22 } from './fetch-node22.mjs';

test('says that the npm registry must be reachable when npx cannot install Node 22', () => {
  assert.throws(
    () => fetchNode22('/nonexistent/npx'),
    /^Error: `npx -p node@22 node` failed \(spawnSync \/nonexistent\/npx ENOENT\): it installs Node 22 from the npm registry, which must be reachable\.$/,
  );
});
