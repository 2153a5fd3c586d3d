import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ProjectInstructionsError } from './project-instructions-error.js';

/** Where a project keeps its override of the base instructions, relative to the project directory. */
export const PROJECT_SYSTEM_PROMPT_FILE = '.agentloop/system_prompt.md';
/** The project's user instructions, relative to the project directory. */
export const AGENTS_MD_FILE = 'AGENTS.md';

/** An instruction file's text and where it came from. */
export interface InstructionFile {
  /** The file's absolute path. */
  readonly path: string;
  /** The file's text, trimmed. */
  readonly text: string;
}

/** The instruction files a project directory holds; an absent file is an absent field. */
export interface ProjectInstructions {
  /** The project directory, absolute. */
  readonly directory: string;
  /** `.agentloop/system_prompt.md`: replaces the base instructions. */
  readonly systemPrompt?: InstructionFile;
  /** `AGENTS.md`: the user's instructions for this project. */
  readonly agentsMd?: InstructionFile;
}

/**
 * Reads a project's `.agentloop/system_prompt.md` and `AGENTS.md`, once: a PromptBuilder renders from
 * what this returns, so building a prompt never touches the disk. A missing file (or directory) and a
 * file with only whitespace are left out. Throws ProjectInstructionsError, naming the path, for a file
 * that exists but cannot be read.
 */
export function readProjectInstructions(projectDir: string): ProjectInstructions {
  const directory = resolve(projectDir);
  const systemPrompt = readInstructionFile(join(directory, PROJECT_SYSTEM_PROMPT_FILE));
  const agentsMd = readInstructionFile(join(directory, AGENTS_MD_FILE));
  return { directory, ...(systemPrompt && { systemPrompt }), ...(agentsMd && { agentsMd }) };
}

function readInstructionFile(path: string): InstructionFile | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ProjectInstructionsError(path, error);
  }
  const trimmed = text.trim();
  return trimmed ? { path, text: trimmed } : undefined;
}
