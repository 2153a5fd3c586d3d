/**
 * How run_command's sandbox confines a command:
 * - `workspace-write`: the workspace is writable, the rest of the file system read-only, /tmp fresh.
 * - `read-only`: nothing is writable but a fresh /tmp.
 * - `off`: no sandbox; the command runs with the user's rights (its process group is still ended on
 *   timeout and cancel).
 */
export type SandboxMode = 'workspace-write' | 'read-only' | 'off';

/** The sandbox of run_command. */
export interface SandboxOptions {
  /** Default: `workspace-write`. */
  mode?: SandboxMode;
  /** Whether a sandboxed command may use the network (the host's, loopback included). Default: false. */
  network?: boolean;
  /**
   * More directories a sandboxed command may write (absolute paths), e.g. a build cache. The workspace's
   * `.git` (and the other configuration the host acts on) is read-only, and one a command makes is removed,
   * unless it is in a path listed here.
   */
  writablePaths?: readonly string[];
  /**
   * The home directory whose folders and files of secrets (HIDDEN_HOME_PATHS) a sandboxed command does not
   * see. Default: the user's (`os.homedir()`).
   */
  homeDirectory?: string;
  /**
   * Environment variables a command gets beside COMMAND_ENVIRONMENT (in every mode, `off` included): names
   * (`DATABASE_URL`, passed as they are) or prefixes ending in `*` (`MY_APP_*`, which still leave out names
   * that look like secrets and URLs with a password). Ignored when `environment` is given.
   */
  passEnvironment?: readonly string[];
  /** The bubblewrap program. Default: `bwrap`, found in PATH. */
  bwrapPath?: string;
}

/** Folders and files of the home directory that hold secrets, hidden from a sandboxed command. */
export const HIDDEN_HOME_PATHS: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.config/gh',
  '.kube',
  '.docker',
  '.password-store',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.vault-token',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  // agentloop's own: the user configuration (it may hold api_key) and the saved sessions.
  '.config/agentloop',
  '.local/share/agentloop',
  '.local/state/agentloop',
];
