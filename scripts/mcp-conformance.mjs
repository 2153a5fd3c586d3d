// Runs the MCP conformance suite's client scenarios (@modelcontextprotocol/conformance, pinned with its
// whole dependency tree in scripts/mcp-conformance-suite/) against agentloop's MCP client
// (packages/mcp/conformance/everything-client.mjs, on the built packages), one scenario at a time, and
// prints one line per scenario and a total. The suite needs Node 22 (it uses `fs.globSync`); the client
// runs on this Node, as agentloop does. Scenarios listed in packages/mcp/conformance/expected-failures.yaml
// (each with its reason) may fail; the check fails when another scenario fails, or a listed one passes.
//
// Usage: node scripts/mcp-conformance.mjs <path of a Node 22 binary> | --fetch-node  [scenario ...]
// (--fetch-node installs Node 22 with `npx -p node@22`). The suite is installed from the npm registry into
// a temporary folder, so this is a CI step (`.ci/run`), not a test. Exits 1 when a scenario we claim fails.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fetchNode22 } from './fetch-node22.mjs';

const run = promisify(execFile);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITE_PIN = path.join(root, 'scripts/mcp-conformance-suite');
const CLIENT = path.join(root, 'packages/mcp/conformance/everything-client.mjs');
export const EXPECTED_FAILURES = path.join(root, 'packages/mcp/conformance/expected-failures.yaml');

/** The packages the client imports, from their builds. */
const PACKAGES = ['spec', 'provider-utils', 'tools', 'memory', 'prompts', 'core', 'mcp'];

/**
 * The client scenarios an expected-failures file lists, each with the comment above it (its reason).
 * The file is the suite's own format (`client:` then `- name` entries), so the suite reads it too.
 */
export function parseExpectedFailures(text) {
  const expected = new Map();
  let section;
  let comment = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('#')) {
      comment.push(trimmed.replace(/^#\s?/, ''));
      continue;
    }
    const key = /^([a-z]+):\s*$/.exec(line);
    if (key) {
      section = key[1];
      comment = [];
      continue;
    }
    const entry = /^\s+-\s+(\S+)\s*$/.exec(line);
    if (entry && section !== 'client') {
      comment = [];
    } else if (entry) {
      if (comment.length === 0) throw new Error(`${EXPECTED_FAILURES}: "${entry[1]}" has no reason above it.`);
      expected.set(entry[1], comment.join(' '));
      comment = [];
    } else if (trimmed) {
      throw new Error(`${EXPECTED_FAILURES}: cannot read the line "${line}".`);
    }
  }
  return expected;
}

/** The client scenarios the suite lists (`conformance list --client`). */
export function parseScenarioList(text) {
  return text.split('\n').flatMap((line) => {
    const match = /^\s+-\s+(\S+)/.exec(line);
    return match ? [match[1]] : [];
  });
}

/**
 * A scenario's verdict from the suite's exit status and its checks: the suite fails a scenario for a
 * failed or warned check, a timeout, or a client that exited with an error where the scenario wants none.
 */
export function verdict({ scenario, exitCode, checks, stderr }, expected) {
  const failed = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
  const passed = exitCode === 0 && failed.length === 0;
  const reason = expected.get(scenario);
  const why = [
    ...failed.map((check) => `${check.id}: ${check.errorMessage || check.description}`),
    ...(failed.length === 0 && exitCode !== 0 ? [lastLine(stderr) || `the suite exited with ${exitCode}`] : []),
  ];
  if (passed && reason) {
    return { ok: false, line: `✗ ${scenario}: passes, but is listed as an expected failure: remove it from the list` };
  }
  if (passed) {
    const successes = checks.filter((check) => check.status === 'SUCCESS').length;
    return { ok: true, line: `✓ ${scenario} (${successes} checks passed)` };
  }
  if (reason) return { ok: true, expected: true, line: `~ ${scenario}: expected failure (${firstSentence(reason)})` };
  return { ok: false, line: `✗ ${scenario}: ${why.join('; ')}`, stderr };
}

/**
 * A scenario that fails is run once more, and passes if the second run does, saying so: some of the
 * suite's checks are timed (sse-retry wants the reconnection within 200 ms of the asked delay), which a
 * busy machine can miss once without anything being wrong with the client.
 */
export async function withOneRetry(first, runAgain) {
  if (first.ok) return first;
  const second = await runAgain();
  if (!second.ok || second.expected) return first;
  return { ...second, line: `${second.line}, on the second try (the first: ${first.line.replace(/^✗ /, '')})` };
}

function lastLine(text) {
  return (text ?? '').trim().split('\n').at(-1)?.trim() ?? '';
}

function firstSentence(text) {
  const end = text.indexOf(': ');
  return end > 0 ? text.slice(0, end) : text;
}

/** Installs the pinned suite into a new folder with Node 22's npm; resolves with the suite's entry point. */
async function installSuite(folder, env) {
  await copyFile(path.join(SUITE_PIN, 'package.json'), path.join(folder, 'package.json'));
  await copyFile(path.join(SUITE_PIN, 'package-lock.json'), path.join(folder, 'package-lock.json'));
  try {
    await run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: folder, env, maxBuffer: 1 << 24 });
  } catch (error) {
    throw new Error(`npm ci of the conformance suite failed:\n${error.stdout ?? ''}\n${error.stderr ?? error.message}`);
  }
  return path.join(folder, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
}

async function findChecks(folder) {
  for (const entry of await readdir(folder, { recursive: true })) {
    if (path.basename(entry) === 'checks.json') {
      const dir = path.join(folder, path.dirname(entry));
      const checks = JSON.parse(await readFile(path.join(dir, 'checks.json'), 'utf8'));
      const stderr = await readFile(path.join(dir, 'stderr.txt'), 'utf8').catch(() => '');
      return { checks, stderr };
    }
  }
  return { checks: [], stderr: '' };
}

/** Runs one scenario with the suite; resolves with its exit status, checks and the client's stderr. */
async function runScenario({ node22, suite, scenario, output, env }) {
  const command = `"${process.execPath}" "${CLIENT}"`;
  const args = [suite, 'client', '--command', command, '--scenario', scenario, '--output-dir', output];
  let exitCode = 0;
  let suiteOutput = '';
  try {
    await run(node22, args, { cwd: output, env, maxBuffer: 1 << 26, timeout: 120_000 });
  } catch (error) {
    exitCode = typeof error.code === 'number' ? error.code : 1;
    suiteOutput = `${error.stdout ?? ''}\n${error.stderr ?? error.message}`;
  }
  const { checks, stderr } = await findChecks(output);
  return { scenario, exitCode, checks, stderr: stderr || (checks.length === 0 ? suiteOutput : '') };
}

/** Runs every client scenario (or the given ones); resolves with each one's verdict. */
export async function checkConformance(node22, only = []) {
  for (const name of PACKAGES) {
    if (!existsSync(path.join(root, 'packages', name, 'dist'))) {
      throw new Error(`packages/${name}/dist is missing: run \`npm run build\` first.`);
    }
  }
  const expected = parseExpectedFailures(await readFile(EXPECTED_FAILURES, 'utf8'));
  const folder = await mkdtemp(path.join(tmpdir(), 'agentloop-mcp-conformance-'));
  // npm's own `#!/usr/bin/env node` finds Node 22 first.
  const env = { ...process.env, PATH: `${path.dirname(node22)}${path.delimiter}${process.env.PATH}` };
  let keep = false;
  try {
    const suite = await installSuite(folder, env);
    const { stdout } = await run(node22, [suite, 'list', '--client'], { env });
    const listed = parseScenarioList(stdout);
    const unknown = [...only, ...expected.keys()].filter((name) => !listed.includes(name));
    if (unknown.length > 0) throw new Error(`the suite has no client scenario ${unknown.join(', ')}`);
    const results = [];
    // One at a time: the suite's parallel mode starts every scenario's servers and clients at once,
    // which on a busy two-core machine makes handshakes and elicitations time out.
    for (const [index, scenario] of (only.length > 0 ? only : listed).entries()) {
      const output = path.join(folder, 'results', String(index));
      await mkdir(output, { recursive: true });
      const outcome = await withOneRetry(
        verdict(await runScenario({ node22, suite, scenario, output, env }), expected),
        async () => {
          const again = `${output}-again`;
          await mkdir(again, { recursive: true });
          return verdict(await runScenario({ node22, suite, scenario, output: again, env }), expected);
        },
      );
      console.log(outcome.line);
      if (!outcome.ok && outcome.stderr) {
        console.log(
          indent(`the client's stderr (last lines):\n${outcome.stderr.trim().split('\n').slice(-8).join('\n')}`),
        );
      }
      results.push(outcome);
    }
    keep = results.some((outcome) => !outcome.ok);
    if (keep)
      console.log(`The suite's results (checks.json, stdout.txt, stderr.txt per scenario) are in ${folder}/results`);
    return results;
  } finally {
    if (!keep) await rm(folder, { recursive: true, force: true });
  }
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [given, ...only] = process.argv.slice(2);
  if (!given) {
    console.error('Usage: node scripts/mcp-conformance.mjs <path of a Node 22 binary> | --fetch-node [scenario ...]');
    process.exit(2);
  }
  try {
    const results = await checkConformance(given === '--fetch-node' ? fetchNode22() : given, only);
    const passing = results.filter((outcome) => outcome.ok && !outcome.expected).length;
    const expected = results.filter((outcome) => outcome.expected).length;
    const failing = results.filter((outcome) => !outcome.ok).length;
    console.log(
      `MCP conformance (client): ${passing} of ${results.length} scenarios pass, ${expected} expected to fail` +
        (failing > 0 ? `, ${failing} failing that should not (see above)` : ''),
    );
    process.exit(failing > 0 ? 1 : 0);
  } catch (error) {
    console.error(`MCP conformance: ${error.message}`);
    process.exit(1);
  }
}
