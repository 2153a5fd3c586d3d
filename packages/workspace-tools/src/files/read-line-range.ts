/** What readLineRange reads from: an open file (a FileHandle is one), or text in memory (textSource). */
export interface ByteSource {
  /** Reads up to `length` bytes at `position` into `buffer` at `offset`; 0 bytes read means the end. */
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/** Text in memory as a ByteSource, e.g. what an editor returned for a file. */
export function textSource(text: string): ByteSource {
  const bytes = Buffer.from(text, 'utf8');
  return {
    read: async (buffer, offset, length, position) => ({
      bytesRead: position >= bytes.length ? 0 : bytes.copy(buffer, offset, position, position + length),
    }),
  };
}

/** Which lines to read and how much text to return at most. */
export interface LineRangeRequest {
  /** The first line, from 1. */
  startLine: number;
  /** The last line, inclusive; undefined for the end of the file. */
  endLine?: number | undefined;
  /** The most bytes of text to return; the range is cut at a line end before it when it is longer. */
  maxBytes: number;
  signal?: AbortSignal | undefined;
}

/** The lines read. */
export interface LineRange {
  /** The lines' text, line ends kept as they are in the file. */
  text: string;
  /** The first line returned (from 1); `startLine` even when no line was returned. */
  firstLine: number;
  /** The last line returned, whole or cut; `firstLine - 1` when none was. */
  lastLine: number;
  /** How many lines the file has (a last line without a line end counts). */
  totalLines: number;
  /** True when the range did not fit in `maxBytes`. */
  cut: boolean;
  /** True when the last line returned is only the start of a line longer than `maxBytes`. */
  lineCut: boolean;
}

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Reads a range of lines from an open file (or text in memory) in chunks, so a large file costs its read once and no more
 * memory than the text returned. The whole file is read to count its lines, which lets the caller say
 * where a cut range goes on. Works on bytes, so `\r\n` line ends stay as they are.
 */
export async function readLineRange(handle: ByteSource, request: LineRangeRequest): Promise<LineRange> {
  const { startLine, maxBytes } = request;
  const endLine = request.endLine ?? Number.POSITIVE_INFINITY;
  const taken: Buffer[] = [];
  let takenBytes = 0;
  let lastLine = startLine - 1;
  let cut = false;
  let lineCut = false;
  // The line being read: its number, its bytes so far (kept only while it is wanted, and never more than
  // what could still fit), and whether it has any byte at all.
  let line = 1;
  let current: Buffer[] = [];
  let currentBytes = 0;
  let lineStarted = false;

  const wanted = () => line >= startLine && line <= endLine && !cut;
  const endOfLine = () => {
    if (wanted()) {
      if (takenBytes + currentBytes <= maxBytes) {
        taken.push(...current);
        takenBytes += currentBytes;
        lastLine = line;
      } else if (lastLine >= startLine) {
        cut = true; // a whole line does not fit after the lines taken: stop before it
      } else {
        // The range's first line alone is longer than the cap: return its start, up to a whole character.
        const bytes = Buffer.concat(current);
        let end = Math.min(maxBytes, bytes.length);
        while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end -= 1;
        taken.push(bytes.subarray(0, end));
        takenBytes = maxBytes;
        lastLine = line;
        cut = true;
        lineCut = true;
      }
    }
    current = [];
    currentBytes = 0;
  };

  const chunk = Buffer.alloc(CHUNK_BYTES);
  let position = 0;
  for (;;) {
    request.signal?.throwIfAborted();
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let start = 0;
    while (start < bytesRead) {
      const found = chunk.indexOf(NEWLINE, start);
      const newline = found !== -1 && found < bytesRead ? found : -1;
      const end = newline === -1 ? bytesRead : newline + 1;
      lineStarted = true;
      // Keep no more of a line than could still fit, plus one byte to know that it does not.
      const room = maxBytes - takenBytes + 1 - currentBytes;
      if (wanted() && room > 0) {
        const piece = Buffer.from(chunk.subarray(start, Math.min(end, start + room)));
        current.push(piece);
        currentBytes += piece.length;
      }
      if (newline !== -1) {
        endOfLine();
        line += 1;
        lineStarted = false;
      }
      start = end;
    }
  }
  if (lineStarted) endOfLine();
  const totalLines = lineStarted ? line : line - 1;
  return { text: Buffer.concat(taken).toString('utf8'), firstLine: startLine, lastLine, totalLines, cut, lineCut };
}
