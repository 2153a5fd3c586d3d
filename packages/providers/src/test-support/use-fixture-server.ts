import { afterAll, beforeAll, beforeEach } from 'vitest';
import { FixtureServer } from './fixture-server.js';

/**
 * Gives the calling test file one FixtureServer: started before its tests, reset before each (no test
 * sees another's requests or leftover responders) and closed after them. Call it at the top level of
 * the file; the server exists only once `beforeAll` has run, hence the accessor.
 */
export function useFixtureServer(): () => FixtureServer {
  let server: FixtureServer | undefined;
  beforeAll(async () => {
    server = await FixtureServer.start();
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    server?.reset();
  });
  return () => {
    if (!server) throw new Error('The fixture server starts in beforeAll: use it inside a test or hook.');
    return server;
  };
}
