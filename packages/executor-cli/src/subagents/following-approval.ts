import type { ApprovalPolicy, ApprovalPolicyOptions } from '@agentloop/core';
import { createApprovalPolicy } from '@agentloop/core';

/**
 * An approval policy that decides as the session's does at the moment of each call: a sub-agent of
 * `[agents.NAME]` asks under the mode `/approval` set last, not the one the session started in, so that
 * switching to `read-only` holds its sub-agents back too. `current` gives the session's policy options;
 * a policy is made once per options object it returns.
 */
export function followingApproval(current: () => ApprovalPolicyOptions): ApprovalPolicy {
  let made: { options: string; policy: ApprovalPolicy } | undefined;
  return {
    decide: (request) => {
      const options = current();
      const key = JSON.stringify(options);
      if (made?.options !== key) made = { options: key, policy: createApprovalPolicy(options) };
      return made.policy.decide(request);
    },
  };
}
