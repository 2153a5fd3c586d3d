import type { AgentEventMap, ApprovalAnswer } from '@agentloop/core';
import type { Style } from '../render/index.js';
import { cutText, stripControls, summarizeArguments } from '../render/index.js';
import type { CommandConfinement } from './approval-control.js';
import type { ChangePreview, DiffLine } from './change-preview.js';
import { commandPrefix } from './command-prefix.js';

/** A request for approval, as the user sees it: what the call does, and the answers to choose from. */
export interface ApprovalScreen {
  /** The lines above the choices: the tool and why it asks, then the diff, the command or the arguments. */
  text: string;
  /** The question over the choices. */
  question: string;
  /** The answers the request offers, each with its key. */
  choices: ApprovalChoiceView[];
}

/** One answer: its key (`y`, `a`, `n`), its label, and what it answers. */
export interface ApprovalChoiceView {
  key: 'y' | 'a' | 'n';
  label: string;
  answer: ApprovalAnswer;
}

/** The most lines of a diff shown; the rest is counted. */
const MAX_DIFF_LINES = 40;

/**
 * The screen of an `approval-requested` event: `⚠ edit_file needs your approval (edit_file can change
 * things)`, then the diff of the change, the command (`$ npm test`, the directory it runs in, and when
 * `confinement` is known whether it runs sandboxed) or the call's arguments, and the choices
 * `y` (once), `a` (for the session: this tool, or for run_command the commands starting like this one) and
 * `n` (refuse, with a message). Everything the model wrote is shown without its control sequences.
 */
export function approvalScreen(
  event: AgentEventMap['approval-requested'],
  preview: ChangePreview,
  style: Style,
  width: number,
  confinement?: CommandConfinement,
): ApprovalScreen {
  const name = stripControls(event.name);
  if (event.kind === 'sampling') return samplingScreen(event, name, style, width);
  const lines = [
    `${style.yellow('⚠')} ${style.bold(name)} needs your approval ${style.dim(`(${stripControls(event.reason)})`)}`,
  ];
  lines.push(...previewLines(preview, event.arguments, style, width, confinement));
  const prefix = preview.kind === 'command' ? commandPrefix(preview.command) : undefined;
  const choices: ApprovalChoiceView[] = [];
  if (event.choices.includes('allow-once'))
    choices.push({ key: 'y', label: 'Yes, once', answer: { decision: 'allow-once' } });
  if (event.choices.includes('allow-session')) {
    choices.push(
      prefix
        ? {
            key: 'a',
            label: `Yes, and don't ask again this session for commands starting with \`${cutText(stripControls(prefix), 40).text}\``,
            answer: { decision: 'allow-session', commandPrefix: prefix },
          }
        : {
            key: 'a',
            label: `Yes, and don't ask again this session for ${name}`,
            answer: { decision: 'allow-session' },
          },
    );
  }
  if (event.choices.includes('deny')) {
    choices.push({ key: 'n', label: 'No, and tell the agent what to do instead', answer: { decision: 'deny' } });
  }
  const question =
    preview.kind === 'command'
      ? 'Run this command?'
      : preview.kind === 'diff'
        ? 'Make this change?'
        : preview.kind === 'patch'
          ? preview.files.length === 1
            ? 'Make this change?'
            : 'Make these changes?'
          : `Let ${name} run?`;
  return { text: `${lines.join('\n')}\n`, question, choices };
}

/** The most messages of a sampling request shown; the rest are counted. */
const MAX_SAMPLING_MESSAGES = 6;

/**
 * The screen of a sampling request: who asks the model, its system prompt and messages (one line each),
 * its token limit and model hints, and the choices; `a` covers that tool's later sampling requests.
 */
function samplingScreen(
  event: AgentEventMap['approval-requested'],
  name: string,
  style: Style,
  width: number,
): ApprovalScreen {
  const room = Math.max(20, width - 14);
  const cut = (text: string) => cutText(stripControls(text).replace(/\s+/g, ' '), room).text;
  const sampling = event.sampling;
  const lines = [
    `${style.yellow('⚠')} ${style.bold(name)} asks to use the model ${style.dim(`(${stripControls(event.reason)})`)}`,
  ];
  if (sampling?.systemPrompt) lines.push(`  ${style.dim('system')}     ${cut(sampling.systemPrompt)}`);
  for (const message of sampling?.messages.slice(0, MAX_SAMPLING_MESSAGES) ?? []) {
    lines.push(`  ${style.dim(message.role.padEnd(10))} ${cut(message.text)}`);
  }
  const more = (sampling?.messages.length ?? 0) - MAX_SAMPLING_MESSAGES;
  if (more > 0) lines.push(style.dim(`  … ${more} more messages`));
  const hints = sampling?.modelPreferences?.hints;
  const limits = [
    `up to ${sampling?.maxTokens ?? '?'} tokens`,
    ...(hints?.length ? [`model hints: ${hints.join(', ')}`] : []),
  ];
  lines.push(style.dim(`  ${stripControls(limits.join(' · '))}`));
  const choices: ApprovalChoiceView[] = [];
  if (event.choices.includes('allow-once'))
    choices.push({ key: 'y', label: 'Yes, once', answer: { decision: 'allow-once' } });
  if (event.choices.includes('allow-session')) {
    choices.push({
      key: 'a',
      label: `Yes, and don't ask again this session for sampling by ${name}`,
      answer: { decision: 'allow-session' },
    });
  }
  if (event.choices.includes('deny')) {
    choices.push({ key: 'n', label: 'No, and tell the agent what to do instead', answer: { decision: 'deny' } });
  }
  return { text: `${lines.join('\n')}\n`, question: 'Send this to the model?', choices };
}

function previewLines(
  preview: ChangePreview,
  args: unknown,
  style: Style,
  width: number,
  confinement: CommandConfinement | undefined,
): string[] {
  const room = Math.max(20, width - 4);
  const cut = (text: string) => cutText(stripControls(text), room).text;
  switch (preview.kind) {
    case 'command': {
      const lines = stripControls(preview.command)
        .split('\n')
        .map((line, index) => `  ${index === 0 ? '$' : ' '} ${style.bold(cutText(line, room - 2).text)}`);
      // Where it runs, always, and how: a command without a sandbox runs with the user's rights there.
      lines.push(style.dim(`  in ${cut(preview.where)}`));
      if (confinement)
        lines.push(
          confinement.unsandboxed
            ? `  ${style.yellow(`⚠ ${cut(confinement.text)}`)}`
            : style.dim(`  ${cut(confinement.text)}`),
        );
      return lines;
    }
    case 'diff': {
      const counts = preview.created ? `new file, +${preview.added}` : `+${preview.added} -${preview.removed}`;
      const lines = [`  ${style.bold(cut(preview.path))} ${style.dim(`(${counts})`)}`];
      if (preview.lines.length === 0) lines.push(style.dim('  (no change)'));
      for (const line of preview.lines.slice(0, MAX_DIFF_LINES)) lines.push(`  ${diffLine(line, style, room)}`);
      const more = preview.lines.length - MAX_DIFF_LINES;
      if (more > 0) lines.push(style.dim(`  … ${more} more lines of the diff`));
      return lines;
    }
    case 'problem':
      return [
        `  ${style.bold(cut(preview.path))}: ${style.yellow(cut(preview.problem))}`,
        `  ${style.dim(cut(summarizeArguments(args, room, 60)))}`,
      ];
    case 'arguments':
      return [`  ${cut(summarizeArguments(args, room, 60))}`];
    case 'patch':
      // A file whose change will fail says why on its own line; the patch's other files still show.
      return preview.files.flatMap((file) =>
        file.kind === 'problem'
          ? [`  ${style.bold(cut(file.path))}: ${style.yellow(cut(file.problem))}`]
          : previewLines(file, args, style, width, confinement),
      );
  }
}

function diffLine(line: DiffLine, style: Style, room: number): string {
  const text = cutText(stripControls(line.text.replaceAll('\t', '  ')), room - 1).text;
  switch (line.kind) {
    case 'hunk':
      return style.cyan(text);
    case 'added':
      return style.green(`+${text}`);
    case 'removed':
      return style.red(`-${text}`);
    case 'context':
      return style.dim(` ${text}`);
  }
}
