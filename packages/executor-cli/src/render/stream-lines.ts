/**
 * Turns the complete lines of streamed text into the lines a terminal shows. A renderer may hold lines
 * back while it cannot render them yet (the rows of a table, whose columns depend on the rows after).
 */
export interface StreamLines {
  /** Takes one complete line of the text; returns the terminal lines to print now, none while it holds it. */
  line(source: string): string[];
  /** Ends the text: returns what it still holds, rendered. */
  end(): string[];
  /** What stands for the text not rendered yet, meanwhile: the lines it holds and the partial line, as written. */
  preview(partial: string): string;
}

/** The lines as they are: for text shown raw. */
export function plainLines(): StreamLines {
  return { line: (source) => [source], end: () => [], preview: (partial) => partial };
}
