/**
 * Names of environment variables that look like they hold a secret: API keys, tokens, passwords, auth,
 * credentials, private keys, cookies, personal access tokens (`_PAT`), the SSH and GPG agents'
 * sockets, which sign with the user's keys, and the user's D-Bus session bus, through which a command can
 * ask the user's services to run programs. A prefix pattern of the allow-list never lets such a name
 * through; only the exact name, given by the user, does.
 */
export const SECRET_VARIABLE =
  /KEY|SECRET|TOKEN|PASS|AUTH|CREDENTIAL|PRIVATE|COOKIE|(?:^|_)PAT(?:_|$)|^SSH_AUTH_SOCK$|^GPG_AGENT_INFO$|^DBUS_SESSION_BUS_ADDRESS$/i;

/**
 * The environment variables a command gets from the agent's process unless told otherwise: what a shell
 * and the common toolchains need to find themselves and behave (the path, the home directory, the user,
 * the terminal, the locale, Node, Python, Go, Rust, Java, Ruby and C build settings, certificate bundles,
 * proxies). A name ending in `*` is a prefix. Everything else is left out: a secret is rarely named so
 * that a list of bad names catches it (`GITHUB_PAT`, `NPM_AUTH`, `MY_APP_PASS`), so what is passed is
 * chosen, not what is withheld. A value with a password in a URL (`https://user:pw@host`) is left out too.
 */
export const COMMAND_ENVIRONMENT: readonly string[] = [
  // The shell, the user, the terminal and the locale.
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  // bash reads ~/.bashrc for a non-interactive shell whose stdin is a socket unless it is nested (SHLVL).
  'SHLVL',
  'HOSTNAME',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TZ',
  'TMPDIR',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'CI',
  'DEBIAN_FRONTEND',
  // Node.js and its package managers.
  'NODE_ENV',
  'NODE_PATH',
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  'NVM_DIR',
  'NVM_BIN',
  'NVM_INC',
  'VOLTA_HOME',
  'PNPM_HOME',
  'COREPACK_HOME',
  'BUN_INSTALL',
  'DENO_DIR',
  // Python.
  'PYTHONPATH',
  'PYTHONHOME',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'PYENV_ROOT',
  'PIPX_HOME',
  'UV_CACHE_DIR',
  // Go.
  'GOPATH',
  'GOROOT',
  'GOCACHE',
  'GOMODCACHE',
  'GOFLAGS',
  'GOOS',
  'GOARCH',
  'GOTOOLCHAIN',
  'CGO_ENABLED',
  // Rust.
  'CARGO_HOME',
  'CARGO_TARGET_DIR',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'RUSTFLAGS',
  // Java.
  'JAVA_HOME',
  'MAVEN_HOME',
  'M2_HOME',
  'GRADLE_HOME',
  'GRADLE_USER_HOME',
  // Ruby.
  'GEM_HOME',
  'GEM_PATH',
  'BUNDLE_PATH',
  'RBENV_ROOT',
  // C and C++ builds.
  'CC',
  'CXX',
  'CFLAGS',
  'CXXFLAGS',
  'CPPFLAGS',
  'LDFLAGS',
  'MAKEFLAGS',
  'PKG_CONFIG_PATH',
  'LD_LIBRARY_PATH',
  'CMAKE_PREFIX_PATH',
  // Certificates and proxies (one with a password in its URL is left out).
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

/** A variable's name, or a prefix of names ending in `*`. */
const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*\*?$/;

/** A URL with a password in it: `scheme://user:password@host`. */
const URL_CREDENTIALS = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]*@/i;

/**
 * Throws a TypeError naming the first entry of `names` that is neither a variable's name nor a prefix
 * ending in `*`.
 */
export function checkEnvironmentNames(names: readonly string[], setting: string): void {
  const bad = names.find((name) => typeof name !== 'string' || !NAME_PATTERN.test(name));
  if (bad !== undefined) {
    throw new TypeError(
      `${setting} has ${JSON.stringify(bad)}, which is not an environment variable's name; give a name such as "JAVA_HOME", or a prefix ending in * such as "MY_APP_*".`,
    );
  }
}

/**
 * The environment a command runs with: the variables of `base` that COMMAND_ENVIRONMENT or `pass` names.
 * A name given exactly in `pass` is the user's choice and passes as it is; one a pattern matches is left
 * out when its name looks like a secret (SECRET_VARIABLE) or its value holds a URL with a password, so
 * that `env` in a command never shows the agent's own API key or a database password.
 */
export function commandEnvironment(
  base: Record<string, string | undefined>,
  pass: readonly string[] = [],
): Record<string, string> {
  const exact = new Set(pass.filter((name) => !name.endsWith('*')));
  const patterns = [...COMMAND_ENVIRONMENT, ...pass.filter((name) => name.endsWith('*'))];
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (exact.has(name)) environment[name] = value;
    else if (matches(name, patterns) && !SECRET_VARIABLE.test(name) && !URL_CREDENTIALS.test(value)) {
      environment[name] = value;
    }
  }
  return environment;
}

function matches(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern));
}
