import type picomatch from 'picomatch';
import { loadPicomatch } from './load-picomatch.js';

/**
 * Files that hold secrets, which the workspace tools never read, write or search: keys, credentials and
 * `.env` files. Globs against the path relative to the workspace, so a workspace at `~` keeps `~/.ssh` out
 * as well as a project's `.env`.
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

/** Which workspace files the workspace tools refuse to read, write or search. */
export interface DenyList {
  /** The deny pattern a workspace-relative path (`/`-separated) matches, or undefined when it may be read. */
  match(relativePath: string): string | undefined;
  /** Tells the model how the user can let a denied file be read; the refusal ends with it. */
  howToAllow?(relativePath: string): string;
}

/** Patterns added to the defaults (an app's or the CLI's configuration). */
export interface DenyListOptions {
  /** More files to refuse. */
  deny?: readonly string[];
  /** Files to read although a deny pattern matches them. */
  allow?: readonly string[];
  /**
   * How the user can allow a denied file, in the words of the app that configures the list (the CLI names
   * its configuration file). Default: a sentence naming the allow patterns.
   */
  howToAllow?: (relativePath: string) => string;
}

/**
 * The deny-list: DEFAULT_DENIED_FILES and `deny`, less DEFAULT_ALLOWED_FILES and `allow`. Patterns are
 * picomatch globs matched against the path relative to the workspace, dot files included, ignoring case
 * (macOS and Windows would open `.ENV` for `.env`). The globs are compiled by the first match, not when
 * the list is made: the default list is made when the package is imported, and compiling its sixty globs
 * cost every process that imports the tools, at start-up, whether or not a tool ever opened a file.
 */
export function createDenyList(options: DenyListOptions = {}): DenyList {
  const settings = { dot: true, nocase: true };
  const denied = [...DEFAULT_DENIED_FILES, ...(options.deny ?? [])];
  const allowedPatterns = [...DEFAULT_ALLOWED_FILES, ...(options.allow ?? [])];
  let compiled: { deny: (readonly [string, picomatch.Matcher])[]; allowed: picomatch.Matcher } | undefined;
  const compile = () => {
    if (compiled) return compiled;
    const compileGlob = loadPicomatch();
    compiled = {
      deny: denied.map((pattern) => [pattern, compileGlob(pattern, settings)] as const),
      allowed: compileGlob(allowedPatterns, settings),
    };
    return compiled;
  };
  return {
    match(relativePath) {
      const { deny, allowed } = compile();
      const found = deny.find(([, matches]) => matches(relativePath))?.[0];
      return found === undefined || allowed(relativePath) ? undefined : found;
    },
    howToAllow: options.howToAllow ?? defaultHowToAllow,
  };
}

function defaultHowToAllow(relativePath: string): string {
  return `The user can allow it by adding "${relativePath}" to the deny-list's allowed files.`;
}

/** The default deny-list, without configured additions. */
export const DEFAULT_DENY_LIST: DenyList = createDenyList();
