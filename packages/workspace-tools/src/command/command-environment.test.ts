import { describe, expect, it } from 'vitest';
import { checkEnvironmentNames, commandEnvironment } from './command-environment.js';

describe('commandEnvironment', () => {
  it('passes what a command needs and leaves out everything else, secrets of any name included', () => {
    expect(
      commandEnvironment({
        PATH: '/usr/bin',
        HOME: '/home/me',
        LANG: 'C.UTF-8',
        LC_ALL: 'C.UTF-8',
        TERM: 'xterm-256color',
        JAVA_HOME: '/usr/lib/jvm/17',
        ANTHROPIC_API_KEY: 'sk-ant-1',
        GITHUB_TOKEN: 'ghp_3',
        GITHUB_PAT: 'github_pat_4',
        NPM_AUTH: 'npm_5',
        MY_APP_PASS: 'hunter2',
        PGPASSWORD: 'pg',
        SSH_AUTH_SOCK: '/tmp/agent.sock',
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
        DATABASE_URL: 'postgres://u:pw@db.example:5432/app',
        UNSET: undefined,
      }),
    ).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TERM: 'xterm-256color',
      JAVA_HOME: '/usr/lib/jvm/17',
    });
  });

  it('leaves out a listed variable whose value is a URL with a password', () => {
    expect(
      commandEnvironment({
        HTTPS_PROXY: 'http://me:secret@proxy.example:3128',
        HTTP_PROXY: 'http://proxy.example:3128',
      }),
    ).toEqual({ HTTP_PROXY: 'http://proxy.example:3128' });
  });

  it("adds the user's names as they are, and their prefixes but for secret-looking names and URLs with a password", () => {
    expect(
      commandEnvironment(
        {
          DATABASE_URL: 'postgres://u:pw@db/app',
          MY_APP_MODE: 'test',
          MY_APP_API_KEY: 'k',
          MY_APP_DSN: 'mysql://u:pw@db/app',
          OTHER: 'x',
        },
        ['DATABASE_URL', 'MY_APP_*'],
      ),
    ).toEqual({ DATABASE_URL: 'postgres://u:pw@db/app', MY_APP_MODE: 'test' });
  });

  it('refuses a name that is not a variable name, saying what to give', () => {
    expect(() => checkEnvironmentNames(['JAVA_HOME', 'MY APP'], 'sandbox.passEnvironment')).toThrow(
      'sandbox.passEnvironment has "MY APP", which is not an environment variable\'s name; give a name such as "JAVA_HOME", or a prefix ending in * such as "MY_APP_*".',
    );
    expect(() => checkEnvironmentNames(['JAVA_HOME', 'LC_*'], 'x')).not.toThrow();
  });
});
