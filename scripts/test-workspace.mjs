// A throwaway workspace on disk for the scripts' own tests (node --test scripts/*.test.mjs), which run the
// checkers on small repositories written for each case.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';

/**
 * A function that writes a workspace from `{ 'relative/path': text or object }` (objects become JSON)
 * into a fresh folder named after `prefix`, and returns the folder. Call it at the top level of a test
 * file: the folders are removed after the file's tests.
 *
 * @param {string} prefix
 * @returns {(files: Record<string, string | object>) => string}
 */
export function testWorkspaces(prefix) {
  const roots = [];
  after(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  return (files) => {
    const root = mkdtempSync(path.join(tmpdir(), prefix));
    roots.push(root);
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), typeof content === 'string' ? content : JSON.stringify(content));
    }
    return root;
  };
}
