// Comments and docs give the reason for a choice, never a tracker's number, which tells a reader without
// the tracker nothing, and the tracker may move. The changelogs keep theirs: they are history. This file
// names such references on purpose and is left out.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['packages', 'examples', 'scripts', 'bench', 'docs'];
const SKIPPED = new Set(['node_modules', 'dist', '__fixtures__', '.turbo']);
const CHECKED = /\.(?:[cm]?[jt]s|md)$/;
const TRACKER_REFERENCE = /\b(?:issue|ticket)s? ?#?\d+|\bPR ?#\d+|\bGH-\d+/i;

function files(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : files(file);
    const checked =
      CHECKED.test(entry.name) && entry.name !== 'CHANGELOG.md' && file !== fileURLToPath(import.meta.url);
    return checked ? [file] : [];
  });
}

test('finds a tracker reference in the forms it is written', () => {
  for (const text of ['(issue 16, cold start)', 'see issue #12', 'Issues 3 and 4', 'ticket 7', 'PR #40', 'GH-9']) {
    assert.match(text, TRACKER_REFERENCE, text);
  }
  for (const text of ['the issue is the timer', 'bugs.url', 'an issue tracker', 'tissue 3']) {
    assert.doesNotMatch(text, TRACKER_REFERENCE, text);
  }
});

test('no comment or doc cites a tracker issue instead of its reason', () => {
  const found = FOLDERS.flatMap((folder) => files(path.join(ROOT, folder))).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        TRACKER_REFERENCE.test(line) ? [`${path.relative(ROOT, file)}:${index + 1}: ${line.trim()}`] : [],
      ),
  );
  assert.deepEqual(found, [], 'Say the reason instead of the issue number.');
});
