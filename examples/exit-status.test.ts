// Runs each example's build as a user does (`npm start` runs `node dist/main.js`), as a child process:
// with nothing configured it runs on its scripted model and exits 0; a provider that cannot be set up or a
// run that fails is one line on stderr and exit status 1, never a stack trace.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const EXAMPLES = ['minimal-agent', 'custom-tools', 'plugin-app'] as const;
const TASKS: Record<(typeof EXAMPLES)[number], string> = {
  'minimal-agent': 'Hi there!',
  'custom-tools': 'When was Node.js 24 released?',
  'plugin-app': 'What is the weather in Lisbon, in Fahrenheit?',
};

/** The example's built entry point; refuses a build older than the source, which would test old code. */
function builtMain(example: string): string {
  const built = fileURLToPath(new URL(`./${example}/dist/main.js`, import.meta.url));
  const source = fileURLToPath(new URL(`./${example}/src/main.ts`, import.meta.url));
  const builtAt = statSync(built, { throwIfNoEntry: false })?.mtimeMs;
  if (builtAt === undefined || builtAt < statSync(source).mtimeMs)
    throw new Error(`${built} is missing or older than its source: build first (npx turbo run build).`);
  return built;
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an example with only the given variables set (none of the caller's keys), in an empty directory. */
function runExample(example: string, variables: Record<string, string>): Promise<Run> {
  const main = builtMain(example);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main], {
      cwd: directory,
      env: { PATH: process.env.PATH ?? '', HOME: directory, NO_COLOR: '1', ...variables },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let directory: string;
let server: Server;
let baseURL: string;
const requests: string[] = [];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'agentloop-examples-'));
  // An OpenAI-compatible server that wants a key it was not given.
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    request.resume();
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: 'Unauthorized', type: 'invalid_request_error' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(directory, { recursive: true, force: true });
});

describe.each(EXAMPLES)('examples/%s, run as a process', (example) => {
  it('runs on its scripted model when nothing is configured, printing its task, and exits 0', async () => {
    const run = await runExample(example, {});
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual([
      '(no model provider in the environment: running on a scripted model; see README.md)',
      `> ${TASKS[example]}`,
    ]);
  }, 30_000);

  it('says in one line which variable is missing for a server without a model, and exits 1', async () => {
    const run = await runExample(example, { OPENAI_BASE_URL: baseURL });
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `✗ No model is set for the server at ${baseURL}: set OPENAI_MODEL, or pass the \`model\` option (it lists its models at ${baseURL}/models).\n`,
    );
    expect(run.status).toBe(1);
  }, 30_000);

  it('says in one line why a run failed and which variable to check, and exits 1', async () => {
    const run = await runExample(example, {
      OPENAI_BASE_URL: baseURL,
      OPENAI_MODEL: 'local-model',
      OPENAI_API_KEY: 'sk-wrong',
    });
    expect(run.stderr).toMatch(
      /^✗ Error from the server at .+ \(401 invalid_request_error\): Unauthorized\. Check OPENAI_API_KEY: the server did not accept it \(or unset it to run on the scripted model\)\.\n$/,
    );
    expect(run.status).toBe(1);
  }, 30_000);

  it('says in one line why a run failed, and exits 1', async () => {
    const before = requests.length;
    const run = await runExample(example, { OPENAI_BASE_URL: baseURL, OPENAI_MODEL: 'local-model' });
    expect(run.stderr).toBe(
      `✗ Error from the server at ${baseURL} (401 invalid_request_error): Unauthorized (the server at ${baseURL} wants an API key and none was sent: pass apiKey or set OPENAI_API_KEY)\n`,
    );
    expect(run.status).toBe(1);
    expect(run.stdout.trimEnd().split('\n')).toEqual([`> ${TASKS[example]}`]);
    expect(requests.slice(before)).toEqual(['POST /v1/chat/completions']);
  }, 30_000);
});

it('each example reports a failure with the same failure-line.ts, so any of them can be copied alone', () => {
  const [first, ...others] = EXAMPLES.map((example) =>
    readFileSync(fileURLToPath(new URL(`./${example}/src/failure-line.ts`, import.meta.url)), 'utf8'),
  );
  for (const other of others) expect(other).toBe(first);
});
