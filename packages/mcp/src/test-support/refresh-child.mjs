// One of several agentloop processes that share a token file, for the test of refreshes across processes:
// connects to the OAuth fixture's MCP server (the first argument) with the tokens in the file (the second),
// which have expired, so that the connection refreshes them; calls the fixture's `whoami` tool; and prints
// `done <result>` or `error <message>`. It runs the built package, as an app does. Each time the provider
// asks for the store's lock it prints `lock` first, so that a test can tell that this process waits on it.
import { runToolCall, ToolRegistry } from '@agentloop/tools';
import { connectMcpServers, FileTokenStore } from '../../dist/index.js';

const [url, file] = process.argv.slice(2);
const files = new FileTokenStore(file);
const store = {
  get: (resource) => files.get(resource),
  set: (resource, credentials) => files.set(resource, credentials),
  delete: (resource) => files.delete(resource),
  withLock(resource, work) {
    process.stdout.write('lock\n');
    return files.withLock(resource, work);
  },
};

const mcp = await connectMcpServers({ remote: { url } }, { oauth: { store } });
try {
  const registry = new ToolRegistry();
  mcp.attach(registry);
  const [status] = mcp.status();
  if (status?.state !== 'ready') throw new Error(`${status?.state}: ${status?.error}`);
  const outcome = await runToolCall(
    registry,
    { toolCallId: 'call_1', toolName: 'remote__whoami', arguments: {} },
    {
      signal: new AbortController().signal,
      sessionId: 'child',
      workspace: process.cwd(),
      toolCallId: 'call_1',
      reportProgress() {},
    },
  );
  if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
  process.stdout.write(`done ${JSON.stringify(outcome)}\n`);
} catch (error) {
  process.stdout.write(`error ${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await mcp.close();
}
