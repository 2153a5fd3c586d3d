import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { AgentHandler } from '../handler/create-agent-handler.js';

/** A real Node HTTP server on 127.0.0.1 and a free port, serving the handler. */
export interface ListeningServer {
  url: string;
  close(): Promise<void>;
}

export function listen(handler: AgentHandler): Promise<ListeningServer> {
  return new Promise((resolve) => {
    const server = serve({ fetch: handler.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
