import type { AgentEventMap, ElicitationResult, ElicitationValue } from '@agentloop/core';
import type { Style, TerminalOutput } from '../render/index.js';
import { stripControls } from '../render/index.js';
import { CtrlCWatch } from '../session/ctrl-c-watch.js';
import type { TerminalInput } from '../session/line-reader.js';
import { checkChoices, type FormField, formFields, readFieldInput } from './elicitation-form.js';

type ElicitationRequested = AgentEventMap['elicitation-requested'];

/**
 * Asks the user an `elicitation-requested` and resolves with the answer; `interrupt` when the user pressed
 * Ctrl-C (the turn is to be cancelled), `cancelled` when `signal` ended the request first.
 */
export type ElicitationPrompter = (
  event: ElicitationRequested,
  signal: AbortSignal,
) => Promise<ElicitationResult | 'interrupt' | 'cancelled'>;

const CANCEL: ElicitationResult = { action: 'cancel' };
const DECLINE: ElicitationResult = { action: 'decline' };

/**
 * The elicitation on a terminal: who asks and why, then a choice to fill in the form (or, in URL mode,
 * to open the page shown) with `y` or to decline with `n`; then one prompt per field of the form, its
 * default pre-filled and its input checked as it is typed (a number's range, an email's shape, a
 * required field). Esc cancels the request at any step; Ctrl-C resolves `interrupt`. Clack loads with
 * the first request.
 */
export function clackElicitationPrompter(
  input: TerminalInput,
  output: TerminalOutput,
  style: Style,
): ElicitationPrompter {
  return async (event, signal) => {
    const [{ SelectPrompt, isCancel }, prompts] = await Promise.all([import('@clack/core'), import('@clack/prompts')]);
    const streams = { input: input as NodeJS.ReadableStream as never, output: output as never, signal };
    const ctrlC = new CtrlCWatch(input);
    // Whatever ended a prompt early: Ctrl-C, the run's cancel, or Esc (a cancel of the request).
    const stopped = (): ElicitationResult | 'interrupt' | 'cancelled' =>
      ctrlC.pressed ? 'interrupt' : signal.aborted ? 'cancelled' : CANCEL;
    try {
      const who = event.server ? `MCP server ${stripControls(event.server)}` : stripControls(event.name);
      const lines = [`${style.yellow('?')} ${style.bold(who)} asks for your input`];
      for (const line of stripControls(event.message).split('\n')) lines.push(`  ${line}`);
      const { fields, skipped } = event.mode === 'form' ? formFields(event.schema ?? {}) : { fields: [], skipped: [] };
      if (event.mode === 'url') lines.push(`  ${style.cyan(stripControls(event.url ?? ''))}`);
      if (skipped.length > 0) {
        lines.push(
          style.dim(
            `  (${skipped.join(', ')} cannot be filled in on a terminal and ${skipped.length > 1 ? 'are' : 'is'} left out)`,
          ),
        );
      }
      output.write(`${lines.join('\n')}\n`);

      const choices = [
        { key: 'y', label: event.mode === 'url' ? 'Open the page (I will open it now)' : 'Fill in the form' },
        { key: 'n', label: 'Decline' },
      ];
      const question = event.mode === 'url' ? 'Open this page?' : 'Answer?';
      const select = new SelectPrompt({
        ...streams,
        options: choices.map((choice) => ({ value: choice.key, choice })),
        render() {
          const title = `${prompts.symbol(this.state)}  ${style.bold(question)}`;
          const picked = choices.find((choice) => choice.key === this.value);
          if (this.state === 'submit')
            return `${title}\n${style.gray(prompts.S_BAR)}  ${style.dim(picked?.label ?? '')}`;
          if (this.state === 'cancel') return `${title}\n${style.gray(prompts.S_BAR)}  ${style.dim('Cancelled.')}`;
          const options = choices.map((choice, index) =>
            index === this.cursor
              ? `${style.green('●')} ${choice.label} ${style.dim(`(${choice.key})`)}`
              : `${style.dim('○')} ${style.dim(choice.label)} ${style.dim(`(${choice.key})`)}`,
          );
          const help = style.dim('↑/↓ and Enter, or y / n · Esc cancels · Ctrl-C cancels the turn');
          return `${title}\n${options.map((line) => `${style.cyan(prompts.S_BAR)}  ${line}`).join('\n')}\n${style.cyan(prompts.S_BAR_END)}  ${help}\n`;
        },
      });
      select.on('key', (text) => {
        const choice = choices.find((candidate) => candidate.key === text?.toLowerCase());
        if (!choice) return;
        select.value = choice.key;
        select.state = 'submit';
      });
      const picked = await select.prompt();
      if (ctrlC.pressed || signal.aborted || isCancel(picked)) return stopped();
      if (picked === 'n') return DECLINE;
      if (event.mode === 'url') return { action: 'accept', content: {} };

      const content: Record<string, ElicitationValue> = {};
      for (const field of fields) {
        const value = await askField(field, prompts, streams);
        if (value === STOPPED || ctrlC.pressed || signal.aborted) return stopped();
        if (value !== undefined) content[field.name] = value;
      }
      return { action: 'accept', content };
    } finally {
      ctrlC.stop();
    }
  };
}

const STOPPED = Symbol('stopped');

type Prompts = typeof import('@clack/prompts');
type Streams = { input: never; output: never; signal: AbortSignal };

/** Asks one field; undefined when an optional field is left empty, STOPPED on Esc. */
async function askField(
  field: FormField,
  prompts: Prompts,
  streams: Streams,
): Promise<ElicitationValue | undefined | typeof STOPPED> {
  const message = `${field.label}${field.required ? '' : ' (optional)'}${field.description ? ` — ${stripControls(field.description)}` : ''}`;
  switch (field.kind) {
    case 'boolean': {
      const answer = await prompts.confirm({ ...streams, message, initialValue: field.default ?? false });
      return prompts.isCancel(answer) ? STOPPED : answer;
    }
    case 'choice': {
      const none = field.required ? [] : [{ value: '', label: '(none)' }];
      const answer = await prompts.select({
        ...streams,
        message,
        options: [...none, ...field.options],
        ...(field.default === undefined ? {} : { initialValue: field.default }),
      });
      if (prompts.isCancel(answer)) return STOPPED;
      return answer === '' ? undefined : answer;
    }
    case 'choices': {
      for (;;) {
        const answer = await prompts.multiselect({
          ...streams,
          message,
          options: field.options,
          required: field.required,
          ...(field.default === undefined ? {} : { initialValues: field.default }),
        });
        if (prompts.isCancel(answer)) return STOPPED;
        const problem = checkChoices(field, answer);
        if (!problem) return answer.length === 0 && !field.required ? undefined : answer;
        prompts.log.warn(problem, { output: streams.output });
      }
    }
    default: {
      const answer = await prompts.text({
        ...streams,
        message,
        ...(field.default === undefined ? {} : { initialValue: String(field.default) }),
        validate: (typed) => {
          const read = readFieldInput(field, typed ?? '');
          return 'error' in read ? read.error : undefined;
        },
      });
      if (prompts.isCancel(answer)) return STOPPED;
      const read = readFieldInput(field, answer ?? '');
      return 'value' in read ? read.value : undefined;
    }
  }
}
