import type { Agent, AgentEvent, AgentEventMap } from '@agentloop/core';
import type { ErrorContext, TerminalOutput } from '../render/index.js';
import {
  createStyle,
  describeError,
  EventRenderer,
  JsonLinesRenderer,
  loadMarkdownBlocks,
  outputWidth,
  plainMarkdown,
  renderMarkdown,
  renderResultSections,
  Spinner,
  stripControls,
  terminalFeatures,
  xmlProtocolChosenLine,
} from '../render/index.js';
import { EXIT_CODES, exitCodeFor } from './exit-codes.js';

/** Options of `runOnce`. */
export interface RunOnceOptions {
  /** Where the result (or, with `json`, every event) goes, and nothing else. Default `process.stdout`. */
  output?: TerminalOutput;
  /** Where progress, status lines and errors go. Default `process.stderr`. */
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
  /**
   * The line that says why a call was refused and what would let it run, where the executor knows better
   * than the generic line (run_command without a sandbox); undefined for the generic line.
   */
  explainRefusal?: (tool: string) => string | undefined;
}

/**
 * Runs one task without asking the user anything (`agentloop run`) and resolves with the exit status
 * (see EXIT_CODES). `output` gets the result alone — the completed task's result, the conversational
 * answer, or the question it could not ask — so `agentloop run "…" > out.md` captures just that, on a
 * terminal or not. Everything else is status and goes to `errorOutput`: the spinner, the streamed text,
 * tool lines, `✔ Done`, the artifacts list, the iteration limit, a cancel, an error. With `json`,
 * `output` gets every event as a JSON line and nothing else.
 *
 * No one can answer an approval here, so it never waits for one: a call the agent's approval policy asks
 * about is refused at once, with a message the model reads (the `approval-requested` and
 * `approval-resolved` events still go out, as JSON lines with `json`), and the first refusal says on
 * `errorOutput` how to let such calls run.
 */
export async function runOnce(agent: Agent, task: string, options: RunOnceOptions = {}): Promise<number> {
  const output = options.output ?? process.stdout;
  const errorOutput = options.errorOutput ?? process.stderr;
  const environment = options.environment ?? process.env;
  const progressFeatures = terminalFeatures(errorOutput, environment);
  const progressStyle = createStyle(progressFeatures.color);
  // The verbose log writes lines to stderr at any moment: a spinner or a live line would draw over them.
  const spin = progressFeatures.animate && !options.verbose;
  const style = createStyle(terminalFeatures(output, environment).color);
  const redact = options.redact ?? ((text: string) => text);
  // Markdown is rendered for a terminal only: a file or a pipe gets the model's Markdown as it wrote it. The
  // run does not wait for the renderer to load: what streams before it has loaded is shown as written.
  const streamMarkdown = !options.json && spin && progressStyle.isColorSupported;
  const markdownBlocks =
    streamMarkdown || (!options.json && style.isColorSupported)
      ? loadMarkdownBlocks().catch(() => undefined)
      : undefined;
  const renderer = options.json
    ? new JsonLinesRenderer(output, redact)
    : new EventRenderer(errorOutput, {
        style: progressStyle,
        width: outputWidth(errorOutput),
        verbose: options.verbose ?? false,
        live: spin,
        ...(spin ? { spinner: new Spinner(errorOutput, progressStyle) } : {}),
        ...(streamMarkdown && markdownBlocks ? { markdown: markdownBlocks } : {}),
      });
  let refused = 0;
  const refuse = (event: AgentEventMap['approval-requested']) => {
    agent.answerApproval(event.requestId, { decision: 'deny', message: NO_ONE_TO_ASK });
    if (++refused === 1 && renderer instanceof EventRenderer) {
      const tool = stripControls(event.name);
      renderer.note(progressStyle.yellow(options.explainRefusal?.(event.name) ?? refusedLine(tool)));
    }
  };
  agent.on('approval-requested', refuse);
  const stopRendering = agent.onAny((event: AgentEvent) => {
    renderer.handle(event);
    // A sub-agent's request comes wrapped, with an id of this agent's: refused like the agent's own.
    if (event.type === 'subagent-event' && event.event.type === 'approval-requested') refuse(event.event);
  });

  let interrupts = 0;
  let force: (() => void) | undefined;
  const forced = new Promise<undefined>((resolve) => (force = () => resolve(undefined)));
  const onSignal = () => (++interrupts === 1 ? agent.cancel('cancelled with Ctrl-C') : force?.());
  if (options.handleSignals ?? true) process.on('SIGINT', onSignal);
  if (!options.json && agent.toolProtocol === 'auto' && agent.activeToolProtocol === 'xml')
    errorOutput.write(`${xmlProtocolChosenLine(agent.provider.capabilities.modelId, progressStyle)}\n`);
  try {
    const result = await Promise.race([agent.run(task), forced]);
    if (!result) return EXIT_CODES.cancelled;
    if (options.json) {
      if (result.exit === 'error')
        errorOutput.write(
          `${redact(stripControls(describeError(result.error, { ...options.errorContext, mode: 'run' })))}\n`,
        );
      return exitCodeFor(result.exit);
    }
    const blocks = style.isColorSupported ? await markdownBlocks : undefined;
    const markdown = blocks ? (text: string) => renderMarkdown(blocks, outputWidth(output), text) : plainMarkdown;
    const sections = renderResultSections(result, {
      style,
      statusStyle: progressStyle,
      markdown,
      mode: 'run',
      verbose: options.verbose ?? false,
      errorContext: options.errorContext ?? {},
      redact,
      // The status lines go to stderr: wrapped to its width when it is a terminal.
      ...(errorOutput.isTTY === true ? { width: outputWidth(errorOutput) } : {}),
    });
    for (const section of sections) (section.channel === 'result' ? output : errorOutput).write(section.text);
    return exitCodeFor(result.exit);
  } finally {
    if (options.handleSignals ?? true) process.off('SIGINT', onSignal);
    agent.off('approval-requested', refuse);
    stopRendering();
    if (renderer instanceof EventRenderer) renderer.stop();
  }
}

/** What the model reads when a call needed approval: it comes after "the user declined this call and said:". */
const NO_ONE_TO_ASK =
  'no one is here to approve calls (this is agentloop run), so every call that needs approval is refused. Do the task without this call if you can; otherwise finish and say in your result what you needed.';

function refusedLine(tool: string): string {
  return `⊘ ${tool} needs approval, and agentloop run asks no one: refused, like every such call of this run. --approval yolo, or an allow rule under [approval] in the configuration, lets them run.`;
}
