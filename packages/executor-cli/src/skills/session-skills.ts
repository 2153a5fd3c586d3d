import type { Agent } from '@agentloop/core';
import type { DiscoveredSkills } from './discover-skills.js';
import { skillWarnings } from './skill-warnings.js';

// What the composition found, kept by agent: `/skills` and the start-up warnings show it, and the agent's
// own `skills` list does not say which project folders were skipped for want of trust.
const discoveries = new WeakMap<Agent, DiscoveredSkills>();

/** Keeps what skill discovery found for an agent's session. */
export function rememberSkills(agent: Agent, found: DiscoveredSkills): void {
  discoveries.set(agent, found);
}

/** What skill discovery found for this agent's session; undefined for an agent the CLI did not compose. */
export function sessionSkillsOf(agent: Agent): DiscoveredSkills | undefined {
  return discoveries.get(agent);
}

/** The start-up warnings about the session's skills (see skillWarnings); none for an agent without skills. */
export function skillStartWarnings(agent: Agent): string[] {
  const found = discoveries.get(agent);
  return found ? skillWarnings(found) : [];
}
