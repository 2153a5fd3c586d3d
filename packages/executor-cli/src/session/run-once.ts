import type { Agent, AgentEvent } from '@agentloop/core';
import type { ErrorContext, TerminalOutput } from '../render/index.js';
import {
  createStyle,
  describeError,
  EventRenderer,
  JsonLinesRenderer,
  loadTerminalMarkdown,
  outputWidth,
  plainMarkdown,
  renderResult,
  Spinner,
  stripControls,
  terminalFeatures,
} from '../render/index.js';
import { EXIT_CODES, exitCodeFor } from './exit-codes.js';

/** Options of `runOnce`. */
export interface RunOnceOptions {
  /** Where the result (or, with `json`, every event) goes. Default `process.stdout`. */
  output?: TerminalOutput;
  /** Where progress and errors go. Default `process.stderr`. */
  errorOutput?: TerminalOutput;
  /** Print the events as JSON lines instead of rendering them. */
  json?: boolean;
  verbose?: boolean;
  environment?: Record<string, string | undefined>;
  errorContext?: ErrorContext;
  /** Removes secrets from `--json` lines, error lines and verbose error details (the session's redactor). */
  redact?: (text: string) => string;
  /** Cancel on SIGINT (and end at once on a second). Default true. */
  handleSignals?: boolean;
}

/**
 * Runs one task without asking the user anything (`agentloop run`) and resolves with the exit status
 * (see EXIT_CODES). The result goes to `output`; the progress (streamed text, tool lines) goes there too
 * on a terminal, and to `errorOutput` when `output` is a pipe, so `agentloop run "…" > out.md` captures
 * the result alone. With `json`, `output` gets every event as a JSON line and nothing else.
 */
export async function runOnce(agent: Agent, task: string, options: RunOnceOptions = {}): Promise<number> {
  const output = options.output ?? process.stdout;
  const errorOutput = options.errorOutput ?? process.stderr;
  const environment = options.environment ?? process.env;
  const progressOutput = options.json || output.isTTY ? output : errorOutput;
  const progressFeatures = terminalFeatures(progressOutput, environment);
  // The verbose log writes lines to stderr at any moment; on the same terminal, a spinner would draw over them.
  const spin = progressFeatures.animate && !(options.verbose && errorOutput.isTTY);
  const style = createStyle(terminalFeatures(output, environment).color);
  const redact = options.redact ?? ((text: string) => text);
  const renderer = options.json
    ? new JsonLinesRenderer(output, redact)
    : new EventRenderer(progressOutput, {
        style: createStyle(progressFeatures.color),
        width: outputWidth(progressOutput),
        verbose: options.verbose ?? false,
        ...(spin ? { spinner: new Spinner(progressOutput, createStyle(progressFeatures.color)) } : {}),
      });
  const stopRendering = agent.onAny((event: AgentEvent) => renderer.handle(event));

  let interrupts = 0;
  let force: (() => void) | undefined;
  const forced = new Promise<undefined>((resolve) => (force = () => resolve(undefined)));
  const onSignal = () => (++interrupts === 1 ? agent.cancel('cancelled with Ctrl-C') : force?.());
  if (options.handleSignals ?? true) process.on('SIGINT', onSignal);
  try {
    const result = await Promise.race([agent.run(task), forced]);
    if (!result) return EXIT_CODES.cancelled;
    if (options.json) {
      if (result.exit === 'error')
        errorOutput.write(`${redact(stripControls(describeError(result.error, options.errorContext)))}\n`);
      return exitCodeFor(result.exit);
    }
    const toOutput = result.exit === 'task_completion' || result.exit === 'converse' || result.exit === 'ask_question';
    const target = toOutput ? output : errorOutput;
    const targetStyle = toOutput ? style : createStyle(terminalFeatures(errorOutput, environment).color);
    const markdown =
      toOutput && style.isColorSupported
        ? await loadTerminalMarkdown(outputWidth(output)).catch(() => plainMarkdown)
        : plainMarkdown;
    target.write(
      renderResult(result, {
        style: targetStyle,
        markdown,
        mode: 'run',
        verbose: options.verbose ?? false,
        errorContext: options.errorContext ?? {},
        redact,
      }),
    );
    return exitCodeFor(result.exit);
  } finally {
    if (options.handleSignals ?? true) process.off('SIGINT', onSignal);
    stopRendering();
    if (renderer instanceof EventRenderer) renderer.stop();
  }
}
