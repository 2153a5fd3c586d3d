import { describe, expect, it } from 'vitest';
import { closestCommands } from './closest-commands.js';

const COMMANDS = ['run', 'config', 'help'];

describe('closestCommands', () => {
  it('finds a command with two letters swapped, one missing or one extra', () => {
    expect(closestCommands('rnu', COMMANDS)).toEqual(['run']);
    expect(closestCommands('confg', COMMANDS)).toEqual(['config']);
    expect(closestCommands('runn', COMMANDS)).toEqual(['run']);
  });

  it('finds nothing for a word unlike every command', () => {
    expect(closestCommands('explain', COMMANDS)).toEqual([]);
    expect(closestCommands('fix', COMMANDS)).toEqual([]);
  });

  it('returns every command at the best distance, sorted', () => {
    expect(closestCommands('hun', ['run', 'hut', 'hunt'])).toEqual(['hunt', 'hut', 'run']);
  });
});
