// A private PostgreSQL server in a temporary folder, for a test file or a benchmark: the session stores'
// tests (through packages/sessions/src/test-support/postgres-server.ts) and bench/sessions.bench.mjs start
// one each, so neither needs a server set up by hand.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const INSTALL = 'install it (Debian: apt-get install postgresql)';

/** The folder of initdb and pg_ctl: on the PATH, or Debian's /usr/lib/postgresql/<version>/bin. */
function postgresBin() {
  const onPath = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (onPath.status === 0 && existsSync(join(onPath.stdout.trim(), 'initdb'))) return onPath.stdout.trim();
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** A port on 127.0.0.1 that nothing listens on now. */
async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts a PostgreSQL server of its own in a temporary folder (trust authentication, listening on
 * 127.0.0.1 and a socket in that folder), or gives the reason it cannot. initdb refuses to run as root:
 * as root the server runs as the `postgres` user, otherwise as the current one.
 */
export async function startPostgresServer() {
  const bin = postgresBin();
  if (!bin) return { reason: `PostgreSQL's initdb and pg_ctl were not found; ${INSTALL}` };
  const folder = mkdtempSync(join(tmpdir(), 'agentloop-postgres-'));
  const data = join(folder, 'data');
  let asUser = [];
  try {
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      chownSync(folder, uid, gid);
      asUser = ['runuser', '-u', 'postgres', '--'];
    }
    mkdirSync(data, { mode: 0o700 });
    if (asUser.length > 0) execFileSync('chown', ['postgres:', data]);
    const run = (program, args) => {
      const [command, ...rest] = [...asUser, join(bin, program), ...args];
      const result = spawnSync(command, rest, { encoding: 'utf8', timeout: 120_000 });
      if (result.status !== 0) {
        throw new Error(
          `${program} failed: ${(result.stderr || result.stdout || String(result.error)).trim().split('\n').slice(-3).join(' ')}`,
        );
      }
    };
    run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    const port = await freePort();
    // fsync off: the tests kill clients, never the server, and a loaded machine need not wait for the disk.
    run('pg_ctl', [
      'start',
      '-w',
      '-t',
      '120',
      '-D',
      data,
      '-l',
      join(folder, 'server.log'),
      '-o',
      `-k ${folder} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    ]);
    const database = (name) => `postgresql://postgres@127.0.0.1:${port}/${name}`;
    return {
      connectionString: database('postgres'),
      database,
      stop: () => {
        const [command, ...rest] = [...asUser, join(bin, 'pg_ctl'), 'stop', '-m', 'immediate', '-D', data];
        spawnSync(command, rest, { timeout: 60_000 });
        rmSync(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    return { reason: `a PostgreSQL server could not be started (${error.message}); ${INSTALL}` };
  }
}
