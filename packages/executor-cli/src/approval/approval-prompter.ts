import type { ApprovalAnswer } from '@agentloop/core';
import type { Style, TerminalOutput } from '../render/index.js';
import { CtrlCWatch } from '../session/ctrl-c-watch.js';
import type { TerminalInput } from '../session/line-reader.js';
import type { ApprovalChoiceView, ApprovalScreen } from './approval-screen.js';

/**
 * Shows an approval screen and resolves with the user's answer; `interrupt` when the user pressed Ctrl-C
 * (the turn is to be cancelled), `cancelled` when `signal` ended the request first (its run was cancelled).
 */
export type ApprovalPrompter = (
  screen: ApprovalScreen,
  signal: AbortSignal,
) => Promise<ApprovalAnswer | 'interrupt' | 'cancelled'>;

/**
 * The approval screen on a terminal: the request's text, then its choices as a list (@clack/core's
 * SelectPrompt, drawn like the session's questions), chosen with the arrow keys and Enter or at once with
 * `y`, `a` or `n`. After `n` the user may type a message for the model (Enter alone sends none). Esc
 * refuses without a message; Ctrl-C resolves `interrupt`. Clack loads with the first request.
 */
export function clackApprovalPrompter(input: TerminalInput, output: TerminalOutput, style: Style): ApprovalPrompter {
  return async (screen, signal) => {
    const [{ SelectPrompt, isCancel }, prompts] = await Promise.all([import('@clack/core'), import('@clack/prompts')]);
    const streams = { input: input as NodeJS.ReadableStream as never, output: output as never, signal };
    const ctrlC = new CtrlCWatch(input);
    try {
      output.write(screen.text);
      const options = screen.choices.map((choice) => ({ value: choice.key, choice }));
      const chosen = (key: unknown) => screen.choices.find((choice) => choice.key === key);
      const select = new SelectPrompt({
        ...streams,
        options,
        render() {
          const title = `${prompts.symbol(this.state)}  ${style.bold(screen.question)}`;
          if (this.state === 'submit')
            return `${title}\n${style.gray(prompts.S_BAR)}  ${style.dim(chosen(this.value)?.label ?? '')}`;
          if (this.state === 'cancel')
            return `${title}\n${style.gray(prompts.S_BAR)}  ${style.dim(ctrlC.pressed ? 'Cancelled.' : 'Refused.')}`;
          const lines = options.map(({ choice }, index) => choiceLine(choice, index === this.cursor, style));
          const help = style.dim('↑/↓ and Enter, or y / a / n · Esc refuses · Ctrl-C cancels the turn');
          return `${title}\n${lines.map((line) => `${style.cyan(prompts.S_BAR)}  ${line}`).join('\n')}\n${style.cyan(prompts.S_BAR_END)}  ${help}\n`;
        },
      });
      // y, a and n answer at once, as the list shows.
      select.on('key', (text) => {
        const choice = chosen(text?.toLowerCase());
        if (!choice) return;
        select.value = choice.key;
        select.state = 'submit';
      });
      const picked = await select.prompt();
      if (ctrlC.pressed) return 'interrupt';
      if (signal.aborted) return 'cancelled';
      const answer = isCancel(picked) ? undefined : chosen(picked)?.answer;
      if (answer === undefined) return { decision: 'deny' };
      if (answer.decision !== 'deny') return answer;
      const message = await prompts.text({
        ...streams,
        message: 'What should the agent do instead? (Enter sends no message)',
      });
      if (ctrlC.pressed) return 'interrupt';
      if (signal.aborted) return 'cancelled';
      const typed = prompts.isCancel(message) ? '' : (message ?? '').trim();
      return typed === '' ? { decision: 'deny' } : { decision: 'deny', message: typed };
    } finally {
      ctrlC.stop();
    }
  };
}

function choiceLine(choice: ApprovalChoiceView, active: boolean, style: Style): string {
  const key = style.dim(`(${choice.key})`);
  return active ? `${style.green('●')} ${choice.label} ${key}` : `${style.dim('○')} ${style.dim(choice.label)} ${key}`;
}

/**
 * Where no one can answer (the session's input or output is not a terminal): the request is shown and
 * refused at once, with a message that tells the model why.
 */
export function refusingApprovalPrompter(output: TerminalOutput, style: Style): ApprovalPrompter {
  return async (screen) => {
    output.write(`${screen.text}${style.yellow('⊘')} Refused: there is no terminal to ask for approval.\n`);
    return {
      decision: 'deny',
      message:
        'no one can approve calls in this session (it has no terminal), so calls that need approval are refused. Do the task without them, or say what you need.',
    };
  };
}
