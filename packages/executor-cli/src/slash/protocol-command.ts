import type { ToolProtocolOption } from '@agentloop/core';
import type { SlashCommand } from './slash-command.js';

const PROTOCOLS: readonly ToolProtocolOption[] = ['auto', 'native', 'xml'];

/** `/protocol`: shows or switches how tools reach the model. */
export const protocolCommand: SlashCommand = {
  name: 'protocol',
  usage: '/protocol [auto|native|xml]',
  summary: 'Show or switch how tools reach the model',
  run(args, { agent, output, style, modelLabel }) {
    const wanted = args.trim();
    if (!wanted) {
      const now =
        agent.toolProtocol === 'auto' ? `, now ${style.bold(agent.activeToolProtocol)} for ${modelLabel()}` : '';
      output.write(
        `Tool protocol: ${style.bold(agent.toolProtocol)}${now} ${style.dim('(auto: native function calling where the model has it, XML otherwise)')}\n`,
      );
      return;
    }
    if (!(PROTOCOLS as readonly string[]).includes(wanted)) {
      output.write(`${style.red('✗')} Unknown protocol "${wanted}": use auto, native or xml.\n`);
      return;
    }
    agent.setToolProtocol(wanted as ToolProtocolOption);
    output.write(`${style.green('✓')} Tool protocol: ${style.bold(wanted)} from the next model call.\n`);
  },
};
