import picomatch from 'picomatch';

/**
 * Files that hold secrets, which the built-in tools never read: keys, credentials and `.env` files. Globs
 * against the path relative to the workspace, so a workspace at `~` keeps `~/.ssh` out as well as a
 * project's `.env`.
 */
export const DEFAULT_DENIED_FILES: readonly string[] = [
  // SSH, GPG and other private keys and key stores.
  '**/.ssh/**',
  '**/id_rsa',
  '**/id_dsa',
  '**/id_ecdsa',
  '**/id_ed25519',
  '**/id_*_sk',
  '**/*.pem',
  '**/*.key',
  '**/*.ppk',
  '**/*.p12',
  '**/*.pfx',
  '**/*.jks',
  '**/*.keystore',
  '**/*.kdbx',
  '**/.gnupg/**',
  '**/.password-store/**',
  // Environment files: `.env` and its variants, and direnv's `.envrc`, which exports the same secrets.
  '**/.env',
  '**/.env.*',
  '**/.env[-_]*',
  '**/.envrc',
  // Package registries' tokens.
  '**/.npmrc',
  '**/.pypirc',
  '**/.gem/credentials',
  '**/.cargo/credentials',
  '**/.cargo/credentials.toml',
  '**/.composer/auth.json',
  '**/.config/composer/auth.json',
  '**/.m2/settings.xml',
  '**/.m2/settings-security.xml',
  '**/.gradle/gradle.properties',
  // Passwords of hosts, databases and git remotes.
  '**/.netrc',
  '**/.pgpass',
  '**/.my.cnf',
  '**/.htpasswd',
  '**/.git-credentials',
  '**/.config/gh/hosts.yml',
  '**/.config/hub',
  // Cloud and infrastructure credentials.
  '**/.aws/credentials',
  '**/.config/gcloud/**',
  '**/application_default_credentials.json',
  '**/.azure/**',
  '**/.s3cfg',
  '**/.docker/config.json',
  '**/.kube/config',
  '**/.terraform.d/credentials.tfrc.json',
  '**/.terraformrc',
  '**/.vault-token',
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
