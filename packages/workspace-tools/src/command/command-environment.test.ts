import { describe, expect, it } from 'vitest';
import { commandEnvironment } from './command-environment.js';

describe('commandEnvironment', () => {
  it('leaves out variables that look like secrets and keeps the rest', () => {
    expect(
      commandEnvironment({
        PATH: '/usr/bin',
        HOME: '/home/me',
        ANTHROPIC_API_KEY: 'sk-ant-1',
        OPENAI_API_KEY: 'sk-2',
        GITHUB_TOKEN: 'ghp_3',
        AWS_SECRET_ACCESS_KEY: 'aws',
        PGPASSWORD: 'pg',
        GOOGLE_APPLICATION_CREDENTIALS: '/key.json',
        SSH_AUTH_SOCK: '/tmp/agent.sock',
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
        LANG: 'C.UTF-8',
        UNSET: undefined,
      }),
    ).toEqual({ PATH: '/usr/bin', HOME: '/home/me', LANG: 'C.UTF-8' });
  });
});
