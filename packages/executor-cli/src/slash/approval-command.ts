import type { ApprovalMode } from '@agentloop/core';
import type { SlashCommand } from './slash-command.js';

const MODES: Record<ApprovalMode, string> = {
  'read-only': 'only read-only tools run; the others are refused',
  ask: 'read-only tools run; every other call asks first',
  auto: 'everything that stays in the workspace runs; what reaches outside asks first',
  yolo: 'nothing asks',
};

/** `/approval`: shows the approval mode, or changes it from the agent's next tool call. */
export const approvalCommand: SlashCommand = {
  name: 'approval',
  usage: '/approval [read-only|ask|auto|yolo]',
  summary: 'Show or change when tool calls wait for your approval',
  run(args, { agent, approval, output, style }) {
    const wanted = args.trim().toLowerCase();
    const sandbox = approval.describeSandbox?.();
    if (!wanted) {
      const mode = approval.mode;
      const now = mode ? `${style.bold(mode)} ${style.dim(`(${MODES[mode]})`)}` : style.dim("the agent's own policy");
      const modes = Object.entries(MODES).map(([name, text]) => `  ${style.cyan(name.padEnd(9))}  ${text}`);
      output.write(
        `Approval mode: ${now}\n${sandbox ? `${sandbox}\n` : ''}${style.dim('Change it with /approval MODE:')}\n${modes.join('\n')}\n`,
      );
      return;
    }
    if (!(wanted in MODES)) {
      output.write(`${style.red('✗')} Unknown approval mode "${wanted}": use read-only, ask, auto or yolo.\n`);
      return;
    }
    approval.setMode(agent, wanted as ApprovalMode);
    const after = approval.describeSandbox?.();
    output.write(
      `${style.green('✓')} Approval mode: ${style.bold(wanted)} ${style.dim(`(${MODES[wanted as ApprovalMode]})`)}, from the next tool call.\n${after ? `${style.dim(after)}\n` : ''}`,
    );
  },
};
