// Runs the benchmarks under bench/, each in its own process: `npm run bench` runs all of them,
// `npm run bench -- loop` only those whose file name contains "loop". They import the packages' built
// dist, so `npm install` (which builds) must have run. The peer comparisons (Vercel AI SDK, OpenAI Agents)
// in the providers and cold-import benchmarks need `npm --prefix bench/peers ci` first (pinned, installed
// for the benchmarks only; see bench/peers/README.md); without it they measure agentloop alone.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.mjs') && file.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(
    `No benchmark matches "${filter}". Available: ${readdirSync(here)
      .filter((f) => f.endsWith('.bench.mjs'))
      .join(', ')}`,
  );
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}\n`);
  const result = spawnSync(process.execPath, ['--expose-gc', join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
