import picomatch from 'picomatch';

/**
 * Files that hold secrets, which the built-in tools never read: keys, credentials and `.env` files. Globs
 * against the path relative to the workspace, so a workspace at `~` keeps `~/.ssh` out as well as a
 * project's `.env`.
 */
export const DEFAULT_DENIED_FILES: readonly string[] = [
  '**/.ssh/**',
  '**/id_rsa',
  '**/id_dsa',
  '**/id_ecdsa',
  '**/id_ed25519',
  '**/*.pem',
  '**/*.key',
  '**/*.p12',
  '**/*.pfx',
  '**/*.jks',
  '**/*.keystore',
  '**/.env',
  '**/.env.*',
  '**/.npmrc',
  '**/.pypirc',
  '**/.netrc',
  '**/.pgpass',
  '**/.git-credentials',
  '**/.aws/credentials',
  '**/.config/gcloud/**',
  '**/.azure/**',
  '**/.docker/config.json',
  '**/.kube/config',
  '**/.gnupg/**',
  '**/.vault-token',
  '**/.config/gh/hosts.yml',
];

/** Exceptions to DEFAULT_DENIED_FILES: public keys and the templates of `.env` files hold no secret. */
export const DEFAULT_ALLOWED_FILES: readonly string[] = [
  '**/.ssh/*.pub',
  '**/.env.example',
  '**/.env.sample',
  '**/.env.template',
];

/** Which workspace files the built-in tools refuse to read. */
export interface DenyList {
  /** The deny pattern a workspace-relative path (`/`-separated) matches, or undefined when it may be read. */
  match(relativePath: string): string | undefined;
}

/** Patterns added to the defaults (the `[tools]` table of the configuration). */
export interface DenyListOptions {
  /** More files to refuse. */
  deny?: readonly string[];
  /** Files to read although a deny pattern matches them. */
  allow?: readonly string[];
}

/**
 * The deny-list: DEFAULT_DENIED_FILES and `deny`, less DEFAULT_ALLOWED_FILES and `allow`. Patterns are
 * picomatch globs matched against the path relative to the workspace, dot files included, ignoring case
 * (macOS and Windows would open `.ENV` for `.env`).
 */
export function createDenyList(options: DenyListOptions = {}): DenyList {
  const settings = { dot: true, nocase: true };
  const deny = [...DEFAULT_DENIED_FILES, ...(options.deny ?? [])].map(
    (pattern) => [pattern, picomatch(pattern, settings)] as const,
  );
  const allowed = picomatch([...DEFAULT_ALLOWED_FILES, ...(options.allow ?? [])], settings);
  return {
    match(relativePath) {
      const found = deny.find(([, matches]) => matches(relativePath))?.[0];
      return found === undefined || allowed(relativePath) ? undefined : found;
    },
  };
}

/** The default deny-list, without configured additions. */
export const DEFAULT_DENY_LIST: DenyList = createDenyList();
