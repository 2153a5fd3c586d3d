import type { FileHandle } from 'node:fs/promises';

/** How many bytes from the start of a file decide whether it is text (git looks at the first 8000). */
export const TEXT_SAMPLE_BYTES = 8192;

/**
 * True when bytes look like a binary file rather than UTF-8 text: a NUL byte (git's test) or a byte
 * sequence that is not UTF-8. A sample cut in the middle of a character is not held against it.
 */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/** Reads the start of an open file and says whether it looks binary (see looksBinary). */
export async function fileLooksBinary(handle: FileHandle): Promise<boolean> {
  const sample = Buffer.alloc(TEXT_SAMPLE_BYTES);
  const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
  return looksBinary(sample.subarray(0, bytesRead));
}

/** "12 KiB"-style size for messages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
