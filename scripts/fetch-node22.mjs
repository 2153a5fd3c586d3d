// Node 22 for the checks that need it (openai 7, the MCP conformance suite): this workspace runs Node 20.
import { spawnSync } from 'node:child_process';

/**
 * The path of a Node 22 binary from the npm registry's `node` package (an install, through npx). Throws an
 * error that says what failed and that the registry must be reachable.
 */
export function fetchNode22(npx = 'npx') {
  const result = spawnSync(npx, ['--yes', '--package', 'node@22', 'node', '-p', 'process.execPath'], {
    encoding: 'utf8',
    timeout: 180_000,
  });
  const binary = result.stdout?.trim();
  if (result.status === 0 && binary) return binary;
  const why = (result.stderr || result.error?.message || 'no output').trim().split('\n').at(-1);
  throw new Error(
    `\`npx -p node@22 node\` failed (${why}): it installs Node 22 from the npm registry, which must be reachable.`,
  );
}
