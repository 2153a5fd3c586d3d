import { describe, expect, it } from 'vitest';
import { createDenyList, DEFAULT_DENY_LIST } from './deny-list.js';

describe('the default deny-list', () => {
  it.each([
    ['.ssh/id_ed25519', '**/.ssh/**'],
    ['.ssh/config', '**/.ssh/**'],
    ['backup/id_rsa', '**/id_rsa'],
    ['certs/server.pem', '**/*.pem'],
    ['tls/server.key', '**/*.key'],
    ['.env', '**/.env'],
    ['app/.env.production', '**/.env.*'],
    ['.ENV', '**/.env'],
    ['.npmrc', '**/.npmrc'],
    ['.netrc', '**/.netrc'],
    ['.git-credentials', '**/.git-credentials'],
    ['.aws/credentials', '**/.aws/credentials'],
    ['.config/gcloud/application_default_credentials.json', '**/.config/gcloud/**'],
    ['.docker/config.json', '**/.docker/config.json'],
    ['.kube/config', '**/.kube/config'],
    ['store.p12', '**/*.p12'],
    ['store.pfx', '**/*.pfx'],
    ['.ssh/id_ed25519_sk', '**/.ssh/**'],
    ['keys/id_ed25519_sk', '**/id_*_sk'],
    ['keys/id_ecdsa_sk', '**/id_*_sk'],
    ['putty/server.ppk', '**/*.ppk'],
    ['.envrc', '**/.envrc'],
    ['.env-local', '**/.env[-_]*'],
    ['.pypirc', '**/.pypirc'],
    ['.gem/credentials', '**/.gem/credentials'],
    ['.cargo/credentials', '**/.cargo/credentials'],
    ['.cargo/credentials.toml', '**/.cargo/credentials.toml'],
    ['.terraform.d/credentials.tfrc.json', '**/.terraform.d/credentials.tfrc.json'],
    ['.terraformrc', '**/.terraformrc'],
    ['.m2/settings.xml', '**/.m2/settings.xml'],
    ['.config/composer/auth.json', '**/.config/composer/auth.json'],
    ['.my.cnf', '**/.my.cnf'],
    ['keys/application_default_credentials.json', '**/application_default_credentials.json'],
  ])('denies %s (%s)', (path, pattern) => {
    expect(DEFAULT_DENY_LIST.match(path)).toBe(pattern);
  });

  it.each([
    '.ssh/id_ed25519.pub',
    '.env.example',
    'README.md',
    'src/env.ts',
    'src/environment.ts',
    'keys.md',
    'Cargo.toml',
    'main.tf',
    'pom.xml',
    'gradle.properties',
    'docker/config.json',
  ])('lets %s be read', (path) => {
    expect(DEFAULT_DENY_LIST.match(path)).toBeUndefined();
  });
});

describe('createDenyList', () => {
  it('adds deny patterns, relative to the workspace', () => {
    const list = createDenyList({ deny: ['secrets/**'] });
    expect(list.match('secrets/db/password.txt')).toBe('secrets/**');
    expect(list.match('src/secrets/readme.md')).toBeUndefined();
    expect(list.match('.env')).toBe('**/.env');
  });

  it('lets allow patterns take files off the list', () => {
    const list = createDenyList({ allow: ['.env.local'] });
    expect(list.match('.env.local')).toBeUndefined();
    expect(list.match('.env.production')).toBe('**/.env.*');
  });
});

describe('howToAllow', () => {
  it('says by default how a file is let through, and takes the words of the app', () => {
    expect(DEFAULT_DENY_LIST.howToAllow?.('.env')).toBe(
      'The user can allow it by adding ".env" to the deny-list\'s allowed files.',
    );
    const list = createDenyList({ howToAllow: (path) => `Add allow = ["${path}"] under [tools].` });
    expect(list.howToAllow?.('.env')).toBe('Add allow = [".env"] under [tools].');
  });
});
