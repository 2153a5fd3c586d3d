import { describe, expect, it } from 'vitest';
import { agentLoopGuidanceTemplate, chainOfThoughtTemplate, systemCapabilitiesTemplate } from './core-templates.js';

describe('systemCapabilitiesTemplate', () => {
  it('describes the agent and names the model when known', () => {
    const text = systemCapabilitiesTemplate({ tools: [], protocol: 'native', model: 'gpt-5' });

    expect(text).toContain('# How you work');
    expect(text).toContain('calling tools in a loop. You are running as gpt-5.');
  });

  it('leaves the model out when unknown', () => {
    expect(systemCapabilitiesTemplate({ tools: [], protocol: 'native' })).not.toContain('running as');
  });
});

describe('agentLoopGuidanceTemplate', () => {
  it('names the three loop-control tools', () => {
    const text = agentLoopGuidanceTemplate();

    expect(text).toContain('# The agent loop');
    expect(text).toContain('- `task_completion`');
    expect(text).toContain('- `ask_question`');
    expect(text).toContain('- `converse`');
  });
});

describe('chainOfThoughtTemplate', () => {
  it('asks for <thinking> tags in XML mode only', () => {
    expect(chainOfThoughtTemplate({ tools: [], protocol: 'xml' })).toContain('inside <thinking></thinking> tags');
    expect(chainOfThoughtTemplate({ tools: [], protocol: 'native' })).not.toContain('<thinking>');
  });
});
