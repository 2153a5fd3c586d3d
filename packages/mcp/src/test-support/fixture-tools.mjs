// The tools of the test servers (stdio and HTTP), registered on an SDK McpServer. Each shows one thing a
// client must handle: text, an error result, an image, a large result, progress, a call that hangs until
// it is cancelled, a crash mid-call, and a tool list that changes.
import { appendFileSync } from 'node:fs';
import { z } from 'zod';

/** A 1×1 PNG, base64. */
export const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/**
 * Registers the fixture tools. `log(line)` records what the server saw (a cancelled call), for a test to
 * read back.
 */
export function registerFixtureTools(server, log = () => {}) {
  server.registerTool(
    'echo',
    {
      description: 'Echoes its text.',
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  server.registerTool('fail', { description: 'Answers with an error result.' }, async () => ({
    content: [{ type: 'text', text: 'the fixture failed on purpose' }],
    isError: true,
  }));
  server.registerTool('image', { description: 'Returns a tiny PNG.' }, async () => ({
    content: [
      { type: 'text', text: 'a pixel:' },
      { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
    ],
  }));
  server.registerTool(
    'big',
    { description: 'Returns a long text.', inputSchema: { chars: z.number().int() } },
    async ({ chars }) => ({ content: [{ type: 'text', text: 'x'.repeat(chars) }] }),
  );
  server.registerTool(
    'progress',
    { description: 'Reports progress in steps, then answers.', inputSchema: { steps: z.number().int() } },
    async ({ steps }, extra) => {
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= steps; step++) {
        if (progressToken !== undefined) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: step, total: steps, message: `step ${step}` },
          });
        }
      }
      return { content: [{ type: 'text', text: `done in ${steps} steps` }] };
    },
  );
  // A tool without an input schema gets only `extra` (the SDK's McpServer passes no arguments).
  server.registerTool('hang', { description: 'Never answers; notes when it is cancelled.' }, async (extra) => {
    log('hang started');
    await new Promise((resolve) => extra.signal.addEventListener('abort', resolve, { once: true }));
    log('hang cancelled');
    return { content: [{ type: 'text', text: 'cancelled' }] };
  });
  server.registerTool('crash', { description: 'Exits the server mid-call.' }, async () => {
    process.stderr.write('fixture: about to crash on purpose\n');
    process.exit(3);
  });
  server.registerTool(
    'add_tool',
    { description: 'Adds a tool, which announces tools/list_changed.', inputSchema: { name: z.string() } },
    async ({ name }) => {
      server.registerTool(name, { description: `Added at run time: ${name}.` }, async () => ({
        content: [{ type: 'text', text: `${name} ran` }],
      }));
      return { content: [{ type: 'text', text: `added ${name}` }] };
    },
  );
}

/** Appends a line to the file named by FIXTURE_LOG, when it is set. */
export function fileLog(line) {
  if (process.env.FIXTURE_LOG) appendFileSync(process.env.FIXTURE_LOG, `${line}\n`);
}
