import pc from 'picocolors';

/** Where a renderer writes: `process.stdout`, `process.stderr`, or a test's buffer. */
export interface TerminalOutput {
  write(text: string): unknown;
  /** True for a terminal; spinners and colour need one. */
  isTTY?: boolean;
  /** The terminal's width in columns. */
  columns?: number;
  /** The terminal's height in rows. */
  rows?: number;
}

/** The colour functions renderers use; all of them return the text unchanged when colour is off. */
export type Style = ReturnType<typeof pc.createColors>;

/** Colours when `enabled`, plain text otherwise. */
export function createStyle(enabled: boolean): Style {
  return pc.createColors(enabled);
}

/**
 * Whether to colour and animate an output: only a terminal, and never with `NO_COLOR` set (no-color.org)
 * or `TERM=dumb`. `FORCE_COLOR` forces colour (not animation) on.
 */
export function terminalFeatures(
  output: TerminalOutput,
  environment: Record<string, string | undefined> = process.env,
): { color: boolean; animate: boolean } {
  const tty = output.isTTY === true && environment.TERM !== 'dumb';
  const noColor = environment.NO_COLOR !== undefined && environment.NO_COLOR !== '';
  const forceColor = environment.FORCE_COLOR !== undefined && environment.FORCE_COLOR !== '0';
  return { color: !noColor && (tty || forceColor), animate: tty && !noColor };
}

/** The output's width, with a fallback for pipes and a cap that keeps lines readable. */
export function outputWidth(output: TerminalOutput): number {
  return Math.min(output.columns && output.columns > 20 ? output.columns : 100, 160);
}
