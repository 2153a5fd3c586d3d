// The OAuth fixture as a program, for the CLI's end-to-end tests: starts it with the options given as
// JSON in the first argument, prints its MCP endpoint's URL on a line of its own, and runs until stdin
// closes (so that it never outlives the test that started it).
import { startOAuthFixtureServer } from './oauth-fixture-server.mjs';

const server = await startOAuthFixtureServer(JSON.parse(process.argv[2] ?? '{}'));
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await server.close();
  process.exit(0);
});
