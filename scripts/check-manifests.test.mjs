// Every published package's manifest and tarball are whole (scripts/check-manifests.mjs), and the check
// finds each problem it is there for.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { checkManifests, manifestProblems } from './check-manifests.mjs';

const LICENSE = 'MIT License\n\nCopyright (c) 2026 the agentloop authors\n';

/** A package that passes every check; each test breaks one thing of it. */
function wholePackage() {
  const files = {
    LICENSE,
    'dist/index.js': 'export {};\n',
    'dist/index.d.ts': 'export {};\n',
    'README.md': '# x\n',
    'package.json': '{}',
  };
  return {
    directory: 'packages/example',
    manifest: {
      name: '@agentloop/example',
      license: 'MIT',
      repository: {
        type: 'git',
        url: 'git+https://github.com/agentloop/agentloop.git',
        directory: 'packages/example',
      },
      homepage: 'https://github.com/agentloop/agentloop/tree/main/packages/example#readme',
      bugs: { url: 'https://github.com/agentloop/agentloop/issues' },
      engines: { node: '>=20.19' },
      files: ['dist', '!dist/**/*.map', 'README.md', 'LICENSE'],
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' } },
      dependencies: { '@agentloop/spec': '0.1.0' },
    },
    files,
    get packed() {
      return Object.keys(this.files);
    },
    read(file) {
      return this.files[file];
    },
  };
}

const problemsOf = (pkg) => manifestProblems(pkg, LICENSE);

test('every published package under packages/ is whole: LICENSE, exports, repository, no stray maps', () => {
  assert.deepEqual(checkManifests(), []);
});

test('the examples tool package, the template to copy, has files, engines and a license, and is private', () => {
  const manifest = JSON.parse(readFileSync(new URL('../examples/weather-tools/package.json', import.meta.url), 'utf8'));
  assert.equal(manifest.private, true);
  assert.equal(manifest.license, 'MIT');
  assert.equal(typeof manifest.engines?.node, 'string');
  assert.ok(manifest.files.includes('dist') && manifest.files.includes('LICENSE'));
  assert.equal(manifest.exports['.'].default, './dist/index.js');
  assert.deepEqual(Object.keys(manifest.peerDependencies), ['zod']);
});

describe('manifestProblems', () => {
  test('finds nothing wrong with a whole package', () => {
    assert.deepEqual(problemsOf(wholePackage()), []);
  });

  test('wants the LICENSE in the tarball, equal to the root one', () => {
    const missing = wholePackage();
    delete missing.files.LICENSE;
    assert.match(problemsOf(missing).join('\n'), /its tarball has no LICENSE/);
    const stale = wholePackage();
    stale.files.LICENSE = 'MIT License\n\nCopyright (c) 2020 someone else\n';
    assert.match(problemsOf(stale).join('\n'), /LICENSE differs/);
  });

  test('wants exports with types first and a default condition last', () => {
    const importOnly = wholePackage();
    importOnly.manifest.exports = { '.': { types: './dist/index.d.ts', import: './dist/index.js' } };
    assert.match(problemsOf(importOnly).join('\n'), /needs a "default" condition, last, so that require\(\) finds it/);
    const typesLast = wholePackage();
    typesLast.manifest.exports = { '.': { import: './dist/index.js', default: './dist/index.js', types: './x.d.ts' } };
    assert.match(problemsOf(typesLast).join('\n'), /must list "types" first/);
  });

  test('wants repository with the package directory, homepage and bugs', () => {
    const bare = wholePackage();
    delete bare.manifest.homepage;
    delete bare.manifest.bugs;
    bare.manifest.repository = { type: 'git', url: 'git+https://github.com/agentloop/agentloop.git' };
    assert.deepEqual(problemsOf(bare), [
      '@agentloop/example: "repository.directory" must be "packages/example"',
      '@agentloop/example: has no "homepage" (an https URL)',
      '@agentloop/example: has no "bugs.url" (an https URL)',
    ]);
  });

  test('refuses an empty peerDependencies', () => {
    const empty = wholePackage();
    empty.manifest.peerDependencies = {};
    assert.deepEqual(problemsOf(empty), ['@agentloop/example: has an empty "peerDependencies": remove it']);
  });

  test('refuses a source map whose sources are not shipped, and takes one whose sources are', () => {
    const maps = wholePackage();
    maps.files['dist/index.js.map'] = JSON.stringify({ version: 3, sources: ['../src/index.ts'] });
    maps.files['dist/index.d.ts.map'] = JSON.stringify({ version: 3, sources: ['../src/index.ts'] });
    assert.deepEqual(problemsOf(maps), [
      '@agentloop/example: its tarball holds source maps whose sources are not in it (dist/index.js.map → src/index.ts and 1 more): ship the sources, or no maps (sourceMap and declarationMap false in tsconfig.build.json, "!dist/**/*.map" in "files")',
    ]);
    maps.files['src/index.ts'] = 'export {};\n';
    assert.deepEqual(problemsOf(maps), []);
  });

  test('refuses test files in the tarball and exports that name files it lacks', () => {
    const leaky = wholePackage();
    leaky.files['dist/index.test.js'] = '';
    delete leaky.files['dist/index.d.ts'];
    assert.deepEqual(problemsOf(leaky), [
      '@agentloop/example: exports["."].types names dist/index.d.ts, which is not in the tarball',
      '@agentloop/example: its tarball holds a test file, dist/index.test.js',
    ]);
  });
});
