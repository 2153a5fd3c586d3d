// Installs agentloop beside openai 7 (which needs Node 22) in a new folder, type-checks a small app there
// and runs it with Node 22 against a scripted OpenAI server on 127.0.0.1. agentloop itself stays on the
// newest releases that run on Node 20; this keeps an app on Node 22 or 24 with openai 7 working.
//
// Usage: node scripts/openai-7-compat.mjs <path of a Node 22 binary> | --fetch-node
// (--fetch-node installs Node 22 with `npx -p node@22`). Needs the packages built and the npm registry
// reachable, so it is a CI step (`.ci/run`, after the install), not a test: tests never reach the network.
// Prints the app's result as JSON and exits 1 when openai 7 under Node 22 does not work.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fetchNode22 } from './fetch-node22.mjs';

const run = promisify(execFile);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The packages the app installs, from their builds: core and the OpenAI provider, and what they import. */
export const PACKAGES = ['spec', 'provider-utils', 'tools', 'memory', 'prompts', 'core', 'providers'];

const APP = `import { DefaultAgent, defineTool } from '@agentloop/core';
import { OpenAIProvider } from '@agentloop/providers/openai';
import { z } from 'zod';

const clock = defineTool({
  name: 'get_time',
  description: 'The time in a time zone.',
  parameters: z.object({ zone: z.string() }),
  execute: async ({ zone }) => \`12:00 \${zone}\`,
});
const provider = new OpenAIProvider({ model: 'gpt-4o', apiKey: 'sk-local', baseURL: process.env.OPENAI_BASE_URL });
const agent = new DefaultAgent(provider);
agent.registerTool(clock);
const result = await agent.run('What time is it in UTC?');
console.log(JSON.stringify({ exit: result.exit, payload: result.payload, node: process.versions.node }));
`;

/** A Chat Completions stream of one tool call, as OpenAI sends it. */
function toolCallStream(name, input) {
  const chunk = (delta, finishReason = null) => ({
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1_727_346_178,
    model: 'gpt-4o-2024-08-06',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const chunks = [
    chunk({ role: 'assistant', content: null }),
    chunk({ tool_calls: [{ index: 0, id: `call_${name}`, type: 'function', function: { name, arguments: input } }] }),
    chunk({}, 'tool_calls'),
    { ...chunk({}), choices: [], usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } },
  ];
  return `${chunks.map((data) => `data: ${JSON.stringify(data)}\n\n`).join('')}data: [DONE]\n\n`;
}

/** A server that answers the app's two model calls: the tool, then the exit. */
async function scriptedServer() {
  const script = [
    toolCallStream('get_time', '{"zone":"UTC"}'),
    toolCallStream('task_completion', '{"result":"It is 12:00 UTC."}'),
  ];
  const bodies = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (part) => {
      body += part;
    });
    request.on('end', () => {
      const answer = script[bodies.length];
      bodies.push(body);
      if (answer === undefined) response.writeHead(500).end('{"error":{"message":"no answer left"}}');
      else response.writeHead(200, { 'content-type': 'text/event-stream' }).end(answer);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, bodies, url: `http://127.0.0.1:${server.address().port}/v1` };
}

/**
 * Packs the packages, installs them with openai 7 under Node 22, type-checks and runs the app. Resolves
 * with what the app printed and the openai version agentloop's provider loaded; rejects with the step
 * that failed and its output.
 */
export async function checkOpenAI7(node22) {
  for (const name of PACKAGES) {
    if (!existsSync(path.join(root, 'packages', name, 'dist'))) {
      throw new Error(`packages/${name}/dist is missing: run \`npm run build\` first.`);
    }
  }
  const folder = await mkdtemp(path.join(tmpdir(), 'agentloop-openai7-'));
  // npm's and tsc's own `#!/usr/bin/env node` find Node 22 first.
  const env = { ...process.env, PATH: `${path.dirname(node22)}${path.delimiter}${process.env.PATH}` };
  const step = async (what, file, args, options = {}) => {
    try {
      return await run(file, args, { cwd: folder, env, maxBuffer: 16 * 1024 * 1024, ...options });
    } catch (error) {
      throw new Error(`${what} failed:\n${error.stdout ?? ''}\n${error.stderr ?? error.message}`);
    }
  };
  try {
    const workspaces = PACKAGES.flatMap((name) => ['-w', `packages/${name}`]);
    const { stdout } = await step('npm pack', 'npm', ['pack', ...workspaces, '--pack-destination', folder, '--json'], {
      cwd: root,
    });
    const tarballs = JSON.parse(stdout).map((entry) => [entry.name, `file:./${entry.filename}`]);
    const typescript = JSON.parse(await readFile(path.join(root, 'node_modules/typescript/package.json'), 'utf8'));
    await writeFile(
      path.join(folder, 'package.json'),
      JSON.stringify({
        name: 'openai-7-app',
        private: true,
        type: 'module',
        dependencies: { ...Object.fromEntries(tarballs), openai: '^7.0.0', zod: '^4.0.0' },
        devDependencies: { typescript: `^${typescript.version}`, '@types/node': '^22.0.0' },
      }),
    );
    await writeFile(
      path.join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          skipLibCheck: false,
          types: ['node'],
          outDir: 'dist',
        },
        include: ['app.ts'],
      }),
    );
    await writeFile(path.join(folder, 'app.ts'), APP);
    await step('npm install', 'npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--engine-strict']);
    const openai = JSON.parse(await readFile(path.join(folder, 'node_modules/openai/package.json'), 'utf8')).version;
    const nested = path.join(folder, 'node_modules/@agentloop/providers/node_modules/openai');
    if (existsSync(nested)) throw new Error('@agentloop/providers installed its own openai instead of the app’s 7.');
    await step('tsc', node22, [path.join(folder, 'node_modules/typescript/bin/tsc'), '-p', '.']);
    const { server, bodies, url } = await scriptedServer();
    try {
      const { stdout: printed } = await step('the app', node22, ['dist/app.js'], {
        env: { ...env, OPENAI_BASE_URL: url },
      });
      return { result: JSON.parse(printed.trim().split('\n').at(-1)), openai, requests: bodies.length };
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const given = process.argv[2];
  if (!given) {
    console.error('Usage: node scripts/openai-7-compat.mjs <path of a Node 22 binary> | --fetch-node');
    process.exit(2);
  }
  const node22 = given === '--fetch-node' ? fetchNode22() : given;
  const { result, openai, requests } = await checkOpenAI7(node22);
  console.log(JSON.stringify({ result, openai, requests }));
  // What the check stands for: openai 7 is the copy the provider shares, under Node 22, and the agent's two
  // calls ended in the scripted task_completion.
  const problems = [
    ...(/^7\./.test(openai) ? [] : [`the app installed openai ${openai}, not 7`]),
    ...(/^22\./.test(result.node ?? '') ? [] : [`the app ran on Node ${result.node}, not 22`]),
    ...(result.exit === 'task_completion' && result.payload?.result === 'It is 12:00 UTC.'
      ? []
      : [`the run ended ${JSON.stringify(result)}`]),
    ...(requests === 2 ? [] : [`the server got ${requests} requests, not 2`]),
  ];
  if (problems.length > 0) {
    console.error(`openai 7 on Node 22: ${problems.join('; ')}`);
    process.exit(1);
  }
  console.log('openai 7 on Node 22: installs, type-checks and runs');
}
