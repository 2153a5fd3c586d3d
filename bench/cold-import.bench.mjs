// Cold import: milliseconds from spawning a fresh `node` to the end of `import(entry)`, for agentloop's
// entry points and, for comparison, the SDKs they wrap and the Vercel AI SDK. Rounds are interleaved (every
// entry once per round, in a shuffled order) so that a slow moment of the machine hits all of them alike;
// the median and the spread (min–max) of the rounds are printed, with each entry's ratio to its comparison
// computed per round (the median of the rounds' ratios, and their min–max).
//
//   npx turbo run build && npm --prefix bench/peers ci && node bench/cold-import.bench.mjs [--runs 15] [--heap]
//
// Aims, so that an app pays at start-up only for what it uses: `@agentloop/core` ≤ a third of `ai` (the
// Vercel AI SDK, pinned in
// bench/peers/package.json and installed for the benchmarks only by `npm --prefix bench/peers ci`; it is
// imported from bench/peers, in the same interleaved rounds), and a provider entry point ≤ its SDK's plus
// 10%. Without bench/peers installed, core ≤ 0.5× `openai` stands in (`ai` measured 0.87× `openai` in the
// issue's run) and a note says how to install the peers.
//
// Figures, this run (2 shared cores, busy with other work, so the wall times spread widely; the child's CPU
// time is steady): 15 interleaved rounds, median (min–max) ms, this repository's dist against a copy of
// commit 1075070's (`--compare /tmp/before`: the copy's node_modules links to this repository's, with
// @agentloop/* pointing at the copy, every package built from 1075070, and eventemitter3, which this
// repository no longer installs, installed beside it with `npm install --prefix`), ratios paired per round:
//
//   entry                            wall after      wall before      CPU after      CPU before
//   node -e 0                        110 (79–328)                     60 (56–71)
//   @agentloop/core                  158 (102–333)   474 (330–689)    84 (77–94)     259 (230–314)
//   core + providers/anthropic       451 (334–555)   711 (501–1145)  257 (232–281)  448 (409–541)
//   @agentloop/providers/anthropic   504 (276–835)   470 (342–642)   267 (227–296)  250 (233–286)
//   @agentloop/providers/openai      268 (205–388)   289 (214–484)   160 (151–192)  158 (155–185)
//   @anthropic-ai/sdk / openai / ai  381 / 241 / 367                  238 / 138 / 179
//
// Ratios (CPU, paired per round): core 0.47× `ai` (0.39–0.52; before 1.43×), anthropic entry 1.07× its SDK
// (0.96–1.30), openai entry 1.17× (0.96–1.37); the provider entries did not change here. From spawn,
// node's own start is 60 of `ai`'s 179 ms, a third already, so "core ≤ a third of `ai`" can only hold for
// what the import adds: core 24 ms against `ai`'s 119, 0.20×. Modules read by `import('@agentloop/core')`:
// 279 before (zod 97, core 58, tsyringe 35, tools 32, prompts 26, memory 12, spec 11, eventemitter3 3,
// reflect-metadata 2), 11 after (the bundles of core (2 files), tools (3), prompts, memory and spec,
// node:crypto, node:events, node:path).
// Heap after GC in a fresh process (`--heap`, MB, medians of 7; node alone 3.29): core 4.27 (before
// 8.85); core + providers/anthropic 9.68 (before 13.92; the SDK alone 8.75, so 1.11×); providers/openai
// 6.08 (`openai` alone 5.39); `ai` 11.12. The bundles are ASCII without doc comments: V8 keeps a module's
// source while it lives, at two bytes a character if one character is outside Latin-1 (0.3 MB of core's).
//
// What the change took off core's path: zod (the loop-control tools' schemas are hand-written Standard
// Schemas carrying their JSON Schema; a JSON Schema tool loads zod's reader on its first call), tsyringe
// and reflect-metadata (loaded by createContainer), eventemitter3 (then Node's EventEmitter, now bundled; the
// first CommonJS module of a process starts the CommonJS loader, 10–25 ms), and ~130 module files (each package's entries
// are bundled by scripts/bundle-dist.mjs). What is left of core's 24 ms (in-process, noisy): node:crypto
// about 4 (randomUUID for session and run ids), the first package resolution about 4–8, and the seven
// bundle files' reading and evaluation. The openai entry's extra 28 ms are the providers package's 38
// module files and provider-utils' 5 (bundling them the same way measured 172 → 158 against the SDK's
// 141) and node:crypto (create-openai-client.ts).
// Earlier (commit 2a18afd → before this change): fast-xml-parser, zod-to-json-schema, jsonrepair and
// @opentelemetry/api left core's path, about 60 ms.
//
// eventemitter3 came back as core's event bus (the card names it), bundled into core's dist as ES module
// code by scripts/bundle-dist.mjs: imported from node_modules it is CommonJS and starts Node's CommonJS
// loader. `npm run bench -- cold-import`, 15 rounds, CPU median (min–max) ms of `@agentloop/core`: Node's
// EventEmitter 79 (76–86), eventemitter3 imported 83 (80–102), eventemitter3 bundled 78 (75–85); `node -e
// 0` 56 in each run. (Wall times, 136 / 90 / 195, measured the other work of the machine.)
//
// The `agentloop` command (bench/cli.bench.mjs, 5 runs, two interleaved pairs of this build against one
// before the executor-cli commits d45babe and 606b11c): to its prompt 134–169 ms against 297–324, and
// `agentloop run` of a one-step task 671–697 against 768–871; `node -e` under `script` 25–34.
// `scripts/cold-import-graph.test.mjs` keeps the modules loaded lazily out of the common path.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The SDKs are the providers package's dependencies, so the processes start in its folder.
const here = dirname(fileURLToPath(import.meta.url));
const cwd = join(here, '..', 'packages', 'providers');
// The peers (`ai`) are installed in bench/peers only, so their processes start there.
const peersCwd = join(here, 'peers');
const aiInstalled = existsSync(join(peersCwd, 'node_modules', 'ai', 'package.json'));
if (!aiInstalled)
  console.log(
    'The Vercel AI SDK (`ai`) is not installed for the benchmarks: run `npm --prefix bench/peers ci` to compare core with it. Comparing core with `openai` instead.\n',
  );
// `--compare <folder>`: also time agentloop's entries in another build laid out like this repository (for
// example a copy of an older commit's dist), in the same interleaved rounds, as rows marked "(compared)".
const compareFlag = process.argv.indexOf('--compare');
const compareCwd = compareFlag > 0 ? join(process.argv[compareFlag + 1], 'packages', 'providers') : undefined;
const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 15;

/** Each row: a label, the code a fresh process runs, and the row it is compared to (with the allowed ratio). */
const ROWS = [
  { label: 'node -e 0', code: '0' },
  aiInstalled
    ? { label: '@agentloop/core', code: "await import('@agentloop/core')", against: 'ai', aim: 1 / 3 }
    : { label: '@agentloop/core', code: "await import('@agentloop/core')", against: 'openai', aim: 0.5 },
  {
    label: '@agentloop/providers/anthropic',
    code: "await import('@agentloop/providers/anthropic')",
    against: '@anthropic-ai/sdk',
    aim: 1.1,
  },
  {
    label: '@agentloop/providers/openai',
    code: "await import('@agentloop/providers/openai')",
    against: 'openai',
    aim: 1.1,
  },
  {
    label: 'core + providers/anthropic',
    code: "await Promise.all([import('@agentloop/core'), import('@agentloop/providers/anthropic')])",
  },
  { label: '@anthropic-ai/sdk', code: "await import('@anthropic-ai/sdk')" },
  { label: 'openai', code: "await import('openai')" },
  ...(aiInstalled ? [{ label: 'ai', code: "await import('ai')", cwd: peersCwd }] : []),
];

if (compareCwd) {
  for (const row of ROWS.filter(
    (candidate) => candidate.label.includes('agentloop') || candidate.label.includes('core'),
  )) {
    ROWS.push({ ...row, label: `${row.label} (compared)`, cwd: compareCwd });
  }
}

// The child's own CPU time (user + system, from its start to the end of the import) is printed too: on
// a busy machine the wall time mostly measures waiting for a core, while the CPU time barely moves.
const REPORT_CPU = '\nconst used = process.cpuUsage(); process.stdout.write(String((used.user + used.system) / 1000));';

/**
 * Wall milliseconds of one fresh process running `code` as an ES module from packages/providers, and the
 * CPU milliseconds it used.
 */
function time(code, where = cwd) {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', code + REPORT_CPU], {
    cwd: where,
    stdio: 'pipe',
  });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`\`${code}\` failed:\n${result.stderr}`);
  return { wall: elapsed, cpu: Number(String(result.stdout)) };
}

const samples = new Map(ROWS.map((row) => [row.label, []]));
const cpuSamples = new Map(ROWS.map((row) => [row.label, []]));
for (const row of ROWS) time(row.code, row.cwd); // warms the file system cache
for (let round = 0; round < RUNS; round++) {
  const order = [...ROWS].sort(() => Math.random() - 0.5);
  for (const row of order) {
    const { wall, cpu } = time(row.code, row.cwd);
    samples.get(row.label).push(wall);
    cpuSamples.get(row.label).push(cpu);
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const fixed = (value) => value.toFixed(0).padStart(5);
for (const [title, measured] of [
  ['wall time, from spawn to the end of the import', samples],
  ["the child's CPU time (user + system)", cpuSamples],
]) {
  console.log(`cold import, fresh process, ${RUNS} interleaved rounds: ${title} (ms)\n`);
  console.log(`${'entry'.padEnd(45)} median   min   max  ratio: median of the rounds' (min–max) (aim)`);
  for (const row of ROWS) {
    const values = measured.get(row.label);
    const med = median(values);
    let ratio = '';
    if (row.against) {
      // Paired per round: both were timed in the same round, so a slow moment of the machine cancels out.
      const against = measured.get(row.against);
      const ratios = values.map((value, round) => value / against[round]);
      const value = median(ratios);
      const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
      ratio = `  ${value.toFixed(2)}× ${row.against} (${range}) (≤ ${row.aim.toFixed(2)}×)${value <= row.aim ? '' : '  MISSED'}`;
    }
    console.log(
      `${row.label.padEnd(45)} ${fixed(med)} ${fixed(Math.min(...values))} ${fixed(Math.max(...values))}${ratio}`,
    );
  }
  console.log('');
}

// `--heap`: also the heap a row's import leaves, after GC, in fresh processes (medians of 7): the code a
// process loads before any loop starts, which every loop of it shares.
if (process.argv.includes('--heap')) {
  const HEAP = `\nfor (let i = 0; i < 4; i++) { gc(); await new Promise((resolve) => setTimeout(resolve, 5)); }
process.stdout.write(String(process.memoryUsage().heapUsed / 1e6));`;
  console.log('heap used after GC, fresh process, medians of 7 (MB)\n');
  for (const row of ROWS) {
    const values = [];
    for (let round = 0; round < 7; round++) {
      const result = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', row.code + HEAP], {
        cwd: row.cwd ?? cwd,
        stdio: 'pipe',
      });
      if (result.status !== 0) throw new Error(`\`${row.code}\` failed:\n${result.stderr}`);
      values.push(Number(String(result.stdout)));
    }
    console.log(`${row.label.padEnd(45)} ${median(values).toFixed(2).padStart(6)}`);
  }
}
