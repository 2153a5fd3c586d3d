import { describe, expect, it } from 'vitest';
import { createStyle } from '../render/index.js';
import { MemoryOutput } from '../test-support/memory-output.js';
import { helpCommand } from './help-command.js';
import type { SlashContext } from './slash-command.js';
import { builtinSlashCommands } from './slash-commands.js';

async function help(columns: number): Promise<string[]> {
  const output = new MemoryOutput(true, columns);
  const context = { output, style: createStyle(false), commands: builtinSlashCommands } as unknown as SlashContext;
  await helpCommand.run('', context);
  return output.text.trimEnd().split('\n');
}

describe('/help', () => {
  it('wraps a long summary between words, under its own column, to the terminal width', async () => {
    const rows = await help(80);

    expect(rows.every((row) => row.length <= 80)).toBe(true);
    // The summaries start after the longest usage, `/approval [read-only|ask|auto|yolo]`, and two spaces.
    const column = ' '.repeat(2 + '/approval [read-only|ask|auto|yolo]'.length + 2);
    const compact = rows.findIndex((row) => row.startsWith('  /compact'));
    expect(rows[compact]).toBe(`${'  /compact'.padEnd(column.length)}Summarise the older part of the`);
    expect(rows[compact + 1]).toBe(`${column}conversation to free context`);
  });

  it('wraps the keys paragraph to the width', async () => {
    const rows = await help(60);
    const keys = rows.slice(rows.findIndex((row) => row.startsWith('Keys:')));

    expect(keys.join(' ')).toBe(
      'Keys: Enter sends; Tab completes a /command, @server:uri or $skill. While the agent works, Ctrl-C cancels the turn and text you type + Enter is queued for its next step. Ctrl-C on an empty prompt, or Ctrl-D, exits.',
    );
    expect(keys.every((row) => row.length <= 60)).toBe(true);
  });
});
