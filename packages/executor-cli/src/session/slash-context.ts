import type { Agent } from '@agentloop/core';
import type { ApprovalControl } from '../approval/index.js';
import type { ModelSwitcher } from '../provider/index.js';
import type { Style, TerminalOutput } from '../render/index.js';
import type { SlashCommand, SlashContext } from '../slash/index.js';
import type { VerboseLog } from '../verbose/index.js';
import type { UsageTracker } from './usage-tracker.js';

/** What the session lends its slash commands. */
export interface SlashContextParts {
  agent: Agent;
  approval: ApprovalControl;
  output: TerminalOutput;
  style: Style;
  commands: readonly SlashCommand[];
  usage: UsageTracker;
  verboseLog: VerboseLog;
  modelLabel: () => string;
  switchModel: ModelSwitcher;
  /** Told when the conversation is cleared, to forget what the session keeps of it. */
  onClear: () => void;
  /** Told the new label after a switch. */
  onSwitch: (label: string) => void;
  exit: () => void;
  /** Takes the input a command sends to the agent (an MCP prompt's messages). */
  submit: (input: string) => void;
}

/** The context slash commands run in: `/model` switches the agent's provider, `/verbose` the log. */
export function createSlashContext(parts: SlashContextParts): SlashContext {
  const { agent, verboseLog } = parts;
  return {
    agent,
    output: parts.output,
    style: parts.style,
    commands: parts.commands,
    modelLabel: parts.modelLabel,
    switchModel: async (reference) => {
      const { provider, label } = await parts.switchModel(reference);
      agent.setProvider(provider);
      parts.onSwitch(label);
      return label;
    },
    clear: () => {
      agent.memory.clear();
      parts.onClear();
    },
    usage: () => parts.usage.stats(),
    approval: parts.approval,
    get verbose() {
      return verboseLog.enabled;
    },
    set verbose(on: boolean) {
      verboseLog.enabled = on;
    },
    exit: parts.exit,
    submit: parts.submit,
  };
}
