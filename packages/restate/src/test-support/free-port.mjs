// Plain JavaScript (types in free-port.d.mts), so that the tests and bench/durable.bench.mjs share it.
import { createServer } from 'node:net';
/** A TCP port on 127.0.0.1 that was free a moment ago: the OS picks it, the probe gives it back. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
