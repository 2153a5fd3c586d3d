import { lstatSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HIDDEN_HOME_PATHS } from './sandbox-options.js';

/** What bwrapArguments builds a sandbox for. */
export interface BwrapRequest {
  /** The workspace, absolute, links resolved. */
  workspace: string;
  /** The working directory, absolute, inside the workspace. */
  cwd: string;
  mode: 'workspace-write' | 'read-only';
  network: boolean;
  /** More writable directories, absolute. */
  writablePaths: readonly string[];
  /**
   * In `workspace-write`, what stays read-only inside the writable workspace (see protectWorkspace):
   * existing entries bound read-only, and missing ones covered by an empty read-only folder.
   */
  protection?: { readOnly: readonly string[]; placeholders: readonly string[] };
  homeDirectory: string;
  /** The descriptor bubblewrap writes its JSON status to (`--json-status-fd`), if any. */
  statusFd?: number;
  /** The command line after `--`: the shell and its arguments. */
  command: readonly string[];
}

/**
 * bubblewrap's arguments for a sandboxed command. Order matters: each mount lands on what the ones before
 * it built.
 *
 * - The whole file system read-only; a fresh /dev and /proc (in a new PID namespace) with /proc/sys
 *   read-only as well (bubblewrap 0.8 leaves it writable where it cannot cover it, and root could set the
 *   host's sysctls through it); a fresh, empty /tmp.
 * - /run, /var/run and /var/tmp covered: sockets there (D-Bus, docker) would reach outside the sandbox.
 * - The workspace bound at its own path, writable or not, and in it what the host acts on read-only again
 *   (`request.protection`, see protectWorkspace): a hook or `core.fsmonitor` written in `.git` would run the
 *   next time the user runs git, outside the sandbox, and a changed `.agentloop/config.toml` at agentloop's
 *   next start. A `.git` the workspace does not have is an empty read-only folder while the command runs.
 * - The extra writable paths, then the home directory's secrets covered (an empty tmpfs over a folder,
 *   /dev/null over a file), last, so that no bind above uncovers them.
 * - New user, PID, IPC, UTS and cgroup namespaces, and every capability dropped: run as root, bubblewrap
 *   would otherwise leave the command all of root's capabilities, enough to remount / writable.
 * - No network namespace of the host unless allowed: only a loopback of its own.
 * - `--die-with-parent` and the PID namespace: when bubblewrap is killed, every process inside goes too.
 * - `--new-session`: the command cannot push input into a terminal (TIOCSTI).
 * - `--json-status-fd`: tells a failure to set up the sandbox from the command's own exit code.
 */
export function bwrapArguments(request: BwrapRequest): string[] {
  const { workspace } = request;
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  args.push('--ro-bind', '/proc/sys', '/proc/sys', '--ro-bind-try', '/proc/sysrq-trigger', '/proc/sysrq-trigger');
  args.push('--tmpfs', '/tmp');
  // Sockets are reached through the file system even read-only and without a network (the user's D-Bus
  // in /run/user, /run/docker.sock, one a process left in /var/tmp): a command that connects to one can
  // run code outside the sandbox. The folders that hold them are covered with empty ones.
  for (const folder of socketFolders()) args.push('--tmpfs', folder);
  args.push(request.mode === 'workspace-write' ? '--bind' : '--ro-bind', workspace, workspace);
  if (request.mode === 'workspace-write' && request.protection) {
    for (const path of request.protection.readOnly) args.push('--ro-bind', path, path);
    for (const path of request.protection.placeholders) args.push('--tmpfs', path, '--remount-ro', path);
  }
  // A writable path that does not exist (yet) is left out rather than failing every command.
  for (const path of request.writablePaths) args.push('--bind-try', path, path);
  for (const name of HIDDEN_HOME_PATHS) args.push(...hide(join(request.homeDirectory, name)));
  args.push('--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try');
  if (!request.network) args.push('--unshare-net');
  args.push('--cap-drop', 'ALL', '--die-with-parent', '--new-session');
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', request.cwd);
  if (request.statusFd !== undefined) args.push('--json-status-fd', String(request.statusFd));
  args.push('--', ...request.command);
  return args;
}

/** Folders of sockets (and nothing a command needs), covered with empty ones; a link is covered where it leads. */
const SOCKET_FOLDERS = ['/run', '/var/run', '/var/tmp'];

/** The socket folders that exist, each once, where its links lead (bubblewrap cannot mount on a link: /var/run → /run). */
function socketFolders(): string[] {
  const folders = new Set<string>();
  for (const folder of SOCKET_FOLDERS) {
    try {
      const real = realpathSync(folder);
      if (statSync(real).isDirectory()) folders.add(real);
    } catch {
      // Not on this system.
    }
  }
  return [...folders];
}

// A link is covered where it leads (bubblewrap mounts on the link's target anyway); a missing path needs
// no cover.
function hide(path: string): string[] {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return [];
  }
  const stats = lstatSync(real);
  if (stats.isDirectory()) return ['--tmpfs', real];
  if (stats.isFile()) return ['--ro-bind', '/dev/null', real];
  return [];
}
