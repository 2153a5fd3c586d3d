import { AgentUsageError } from '../errors/index.js';
import {
  type ApprovalMode,
  type ApprovalPolicyOptions,
  createApprovalPolicy,
  isApprovalMode,
} from './approval-mode.js';
import type { ApprovalPolicy } from './approval-policy.js';

/** The agent's `approval` option: a policy of its own, a mode of the default policy, or its options. */
export type ApprovalOption = ApprovalPolicy | ApprovalMode | ApprovalPolicyOptions;

/** The policy an `approval` option names. Throws an AgentUsageError (`invalid_option`) for a bad one. */
export function resolveApproval(option: ApprovalOption): ApprovalPolicy {
  if (typeof option === 'string') {
    if (isApprovalMode(option)) return createApprovalPolicy({ mode: option });
  } else if (typeof option === 'object' && option !== null) {
    if (typeof (option as ApprovalPolicy).decide === 'function') return option as ApprovalPolicy;
    try {
      return createApprovalPolicy(option as ApprovalPolicyOptions);
    } catch (error) {
      throw new AgentUsageError(`approval: ${(error as Error).message}`, 'invalid_option');
    }
  }
  throw new AgentUsageError(
    `approval must be a mode (read-only, ask, auto, yolo), { mode, rules } or an ApprovalPolicy, got ${JSON.stringify(option)}.`,
    'invalid_option',
  );
}
