import { appendFile, readFile } from 'node:fs/promises';
import { defineTool } from '@agentloop/tools';
import { z } from 'zod';

/**
 * The notes tools of one notes file. `add_note` has a side effect, and a durable run may call it twice
 * (a worker that dies in the middle of the call leaves it to run again on another one), so it writes its
 * call's idempotency key beside the note and adds nothing when the key is there already.
 */
export function notesTools(file: string) {
  const read = () => readFile(file, 'utf8').catch(() => '');
  const addNote = defineTool({
    name: 'add_note',
    description: 'Adds a note to the notes file.',
    parameters: z.object({ text: z.string().min(1).describe('The note, one line') }),
    annotations: { readOnly: false, destructive: false, openWorld: false },
    execute: async ({ text }, context) => {
      const key = context.idempotencyKey ?? context.toolCallId;
      if ((await read()).includes(`\t${key}\n`)) return `Already noted: ${text}`;
      await appendFile(file, `${text.replaceAll('\n', ' ')}\t${key}\n`);
      return `Noted: ${text}`;
    },
  });
  const readNotes = defineTool({
    name: 'read_notes',
    description: 'Reads every note, oldest first.',
    parameters: z.object({}),
    annotations: { readOnly: true, destructive: false, openWorld: false },
    execute: async () => {
      const notes = (await read())
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split('\t')[0]);
      return notes.length === 0 ? 'No notes yet.' : notes.map((note) => `- ${note}`).join('\n');
    },
  });
  return [addNote, readNotes];
}
