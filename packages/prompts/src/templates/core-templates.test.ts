import { describe, expect, it } from 'vitest';
import { agentLoopGuidanceTemplate, chainOfThoughtTemplate, systemCapabilitiesTemplate } from './core-templates.js';

describe('systemCapabilitiesTemplate', () => {
  it('describes the agent and names the model when known', () => {
    const text = systemCapabilitiesTemplate({ tools: [], protocol: 'native', model: 'gpt-5' });

    expect(text).toContain('# How you work');
    expect(text).toContain('You are an autonomous agent running as gpt-5.');
    expect(text).toContain('results come back in the next message');
  });

  it('leaves the model out when unknown', () => {
    expect(systemCapabilitiesTemplate({ tools: [], protocol: 'native' })).not.toContain('running as');
  });
});

describe('agentLoopGuidanceTemplate', () => {
  it('names the three loop-control tools as the only way to end the turn', () => {
    const text = agentLoopGuidanceTemplate();

    expect(text).toContain('# The agent loop');
    expect(text).toContain('end your turn with exactly one call to `task_completion`, `ask_question` or `converse`');
  });

  it('says that every response calls a tool, and that text alone ends nothing', () => {
    const text = agentLoopGuidanceTemplate();

    expect(text).toContain('Every response must call a tool');
    expect(text).toContain('text without a tool call does not reach the user and ends nothing');
    expect(text).toContain('If a call fails, read the error');
  });

  // When to call each tool is in its description, which the model gets with the tools: said once, there.
  it('leaves when to call each loop-control tool to its description', () => {
    const text = agentLoopGuidanceTemplate();

    expect(text).not.toContain('suggested answers');
    expect(text).not.toContain('when the task is done');
  });
});

describe('chainOfThoughtTemplate', () => {
  it('asks for <thinking> tags in XML mode only', () => {
    expect(chainOfThoughtTemplate({ tools: [], protocol: 'xml' })).toContain('inside <thinking></thinking> tags');
    expect(chainOfThoughtTemplate({ tools: [], protocol: 'native' })).not.toContain('<thinking>');
  });

  it('asks for a word to the user before each call, without tool names, in both protocols', () => {
    for (const protocol of ['native', 'xml'] as const) {
      expect(chainOfThoughtTemplate({ tools: [], protocol })).toContain(
        'tell the user in one sentence why you take the step, without naming tools',
      );
    }
  });
});
