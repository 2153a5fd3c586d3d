/** The environment variable that makes a missing system program fail the tests instead of skipping them. */
export declare const REQUIRE_SYSTEM_TOOLS: 'AGENTLOOP_REQUIRE_SYSTEM_TOOLS';

/**
 * True when the program can run (`missing` is undefined); false when it cannot, after saying once on
 * stderr why the tests that need it are skipped. With `AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1` in `environment`
 * a missing program throws instead, saying what is missing and how to install it.
 */
export declare function systemToolAvailable(
  name: string,
  missing: string | undefined,
  environment?: Record<string, string | undefined>,
): boolean;
