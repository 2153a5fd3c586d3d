import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packages = fileURLToPath(new URL('./packages/', import.meta.url));
const examples = fileURLToPath(new URL('./examples/', import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the packages' sources, not their builds: `@agentloop/core` and subpaths such as
    // `@agentloop/core/testing` map to `packages/core/src/.../index.ts`.
    alias: [
      { find: /^@agentloop\/([a-z-]+)$/, replacement: `${packages}$1/src/index.ts` },
      { find: /^@agentloop\/([a-z-]+)\/([a-z-/]+)$/, replacement: `${packages}$1/src/$2/index.ts` },
      { find: /^@agentloop-examples\/([a-z-]+)$/, replacement: `${examples}$1/src/index.ts` },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    typecheck: {
      enabled: true,
      include: ['packages/*/src/**/*.test-d.ts'],
      tsconfig: './tsconfig.typetest.json',
    },
    reporters: ['default', 'json'],
    outputFile: { json: './test-results.json' },
    testTimeout: 20_000,
  },
});
