// The core prompt templates. They are plain functions of the prompt context so a reader sees the exact
// text a model gets; the wording follows the seed's: act through tools, always end with a loop-control tool.
// Every request carries this text, so each rule is said once: when to call each loop-control tool is in
// that tool's description (sent with the tools, or listed under "# Tools" in XML mode), not here again.
import type { PromptContext } from '../prompt-context.js';

/** What the agent is and how it works. */
export function systemCapabilitiesTemplate(context: PromptContext): string {
  const model = context.model ? ` running as ${context.model}` : '';
  return [
    '# How you work',
    `You are an autonomous agent${model}. You work in steps: each response calls tools, and their results come back in the next message.`,
  ].join('\n');
}

/** That every response calls a tool, and which tools end the turn. */
export function agentLoopGuidanceTemplate(): string {
  return [
    '# The agent loop',
    'Every response must call a tool: text without a tool call does not reach the user and ends nothing. Use the task tools as often as needed, then end your turn with exactly one call to `task_completion`, `ask_question` or `converse`. If a call fails, read the error and fix the call or try another way.',
  ].join('\n');
}

/** Ask for brief reasoning, and a word to the user, before acting. */
export function chainOfThoughtTemplate(context: PromptContext): string {
  const where = context.protocol === 'xml' ? ' inside <thinking></thinking> tags' : '';
  return [
    '# Thinking',
    `Before each tool call, reason briefly${where}, then tell the user in one sentence why you take the step, without naming tools.`,
  ].join('\n');
}
