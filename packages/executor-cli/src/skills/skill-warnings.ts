// Apart from the discovery, which loads core: the session's prompt and /skills show these lines before
// core has loaded.
import type { DiscoveredSkills } from './discover-skills.js';

/**
 * The lines to warn with at start: each broken skill (its file and fault), and the project's skills left
 * out, with how to trust the project. None when all is well.
 */
export function skillWarnings(found: DiscoveredSkills): string[] {
  const lines = found.problems.map((problem) => `Skill ${problem.file} ${problem.message}; it is left out.`);
  if (found.untrustedFolders.length > 0) {
    lines.push(
      `The project's skills in ${found.untrustedFolders.join(', ')} are not loaded: you have not trusted the project. To use them, add trusted_projects = [${JSON.stringify(found.projectDir)}] to the user configuration (\`agentloop config path\` shows where it is).`,
    );
  }
  return lines;
}
