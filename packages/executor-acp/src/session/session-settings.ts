import type { SessionConfigOption, SessionMode, SessionModeState } from '@agentclientprotocol/sdk';
import type { ApprovalMode } from '@agentloop/core';
import { APPROVAL_MODES } from '@agentloop/core';

/** The config option that selects the approval mode (category `mode`). */
export const MODE_OPTION_ID = 'mode';
/** The config option that selects the model (category `model`). */
export const MODEL_OPTION_ID = 'model';

/** A model an editor can switch a session to. */
export interface AcpModelChoice {
  /** What the editor sends back, e.g. `anthropic:claude-sonnet-4-6`. */
  id: string;
  /** What the editor shows. */
  name: string;
  description?: string;
}

/** The approval modes, as an editor shows them. */
const MODES: Record<ApprovalMode, SessionMode> = {
  'read-only': {
    id: 'read-only',
    name: 'Read only',
    description: 'Reads and searches the project; refuses every change and every command that could make one.',
  },
  ask: {
    id: 'ask',
    name: 'Ask',
    description: 'Reads freely; asks before changing a file or running a command.',
  },
  auto: {
    id: 'auto',
    name: 'Auto',
    description: 'Works in the project without asking; asks before anything that reaches outside it.',
  },
  yolo: {
    id: 'yolo',
    name: 'Full access',
    description: 'Runs every tool call without asking.',
  },
};

/** The session's modes (the approval modes) and the one in use, for `session/new`'s `modes`. */
export function modeState(current: ApprovalMode): SessionModeState {
  return { currentModeId: current, availableModes: APPROVAL_MODES.map((mode) => MODES[mode]) };
}

/**
 * The session's config options: the approval mode (the same choice as `modes`, for editors that prefer
 * config options) and, when the session offers models, the model.
 */
export function configOptions(
  mode: ApprovalMode,
  models: { available: readonly AcpModelChoice[]; current: string } | undefined,
): SessionConfigOption[] {
  const options: SessionConfigOption[] = [
    {
      id: MODE_OPTION_ID,
      name: 'Approvals',
      description: 'When tool calls wait for your approval',
      category: 'mode',
      type: 'select',
      currentValue: mode,
      options: APPROVAL_MODES.map((id) => ({ value: id, name: MODES[id].name, description: MODES[id].description })),
    },
  ];
  if (models && models.available.length > 0) {
    options.push({
      id: MODEL_OPTION_ID,
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: models.current,
      options: models.available.map((model) => ({
        value: model.id,
        name: model.name,
        ...(model.description ? { description: model.description } : {}),
      })),
    });
  }
  return options;
}
