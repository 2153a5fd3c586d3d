import type { FileHandle } from 'node:fs/promises';

/**
 * Replaces the whole content of an open file with `text` (UTF-8). Writes at explicit positions, so it
 * does not matter where an earlier read left the descriptor's offset, and loops until every byte is
 * written (a write may write less than it was given).
 */
export async function replaceContent(handle: FileHandle, text: string): Promise<void> {
  const buffer = Buffer.from(text, 'utf8');
  await handle.truncate(0);
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset, offset);
    offset += bytesWritten;
  }
}
