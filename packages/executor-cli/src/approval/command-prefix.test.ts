import { describe, expect, it } from 'vitest';
import { commandPrefix } from './command-prefix.js';

describe('commandPrefix', () => {
  it.each([
    ['npm test', 'npm test'],
    ['npm test -- --run src/math.test.js', 'npm test'],
    ['npm run lint -- --fix', 'npm run lint'],
    ['git status --short', 'git status'],
    ['git', 'git'],
    ['ls -la src', 'ls'],
    ['node build.js --watch', 'node build.js'],
    ['node --test', 'node --test'],
    ['bash -c "rm -rf /"', 'bash -c "rm -rf /"'],
    ['sudo apt-get install x', 'sudo apt-get install x'],
    ['python -m pytest -q tests/', 'python -m pytest'],
    ['cargo build --release', 'cargo build'],
    ['  make   check', 'make   check'],
    ['npm --version', 'npm'],
    ['npm test; rm -rf ~', 'npm test'],
    ['npm test&&curl x', 'npm test'],
    ['cat file | sh', 'cat'],
  ])('grants %j as %j', (command, prefix) => {
    expect(commandPrefix(command)).toBe(prefix);
  });

  it('is a prefix of the command as written', () => {
    for (const command of ['npm  test  --watch', 'python3 -m  http.server 8000', 'yarn run  build'])
      expect(command.trimStart().startsWith(commandPrefix(command))).toBe(true);
  });
});
