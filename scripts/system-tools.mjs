// Whether a system program some tests need (tmux, bubblewrap, PostgreSQL, Chromium) is there, for the
// packages' test support (each re-exports it from src/test-support/system-tools.ts). Where it is
// missing the tests skip and say why; CI installs the programs (.ci/run) and sets
// AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1, which turns such a skip into a failure, so that a run cannot go green
// with the tests that need them skipped.

/** The environment variable that makes a missing system program fail the tests instead of skipping them. */
export const REQUIRE_SYSTEM_TOOLS = 'AGENTLOOP_REQUIRE_SYSTEM_TOOLS';

/** System programs whose absence was already reported in this process, so each is reported once. */
const reported = new Set();

/**
 * True when the program can run (`missing` is undefined); false when it cannot, after saying once on
 * stderr why the tests that need it are skipped. With `AGENTLOOP_REQUIRE_SYSTEM_TOOLS=1` in `environment`
 * a missing program throws instead, saying what is missing and how to install it.
 *
 * @param {string} name the program, as a person would look for it (`tmux`, `bubblewrap`)
 * @param {string | undefined} missing why it cannot run (not installed, forbidden by the container),
 *   with how to install it; undefined when it can run
 * @param {Record<string, string | undefined>} [environment] where to read the variable (default: process.env)
 * @returns {boolean}
 */
export function systemToolAvailable(name, missing, environment = process.env) {
  if (missing === undefined) return true;
  if (environment[REQUIRE_SYSTEM_TOOLS] === '1') {
    throw new Error(
      `${name} is required by these tests (${REQUIRE_SYSTEM_TOOLS}=1) but cannot run: ${missing}. Install it, or unset ${REQUIRE_SYSTEM_TOOLS} to let the tests that need it skip.`,
    );
  }
  if (!reported.has(name)) {
    reported.add(name);
    console.warn(`tests that need ${name} are skipped: ${missing}`);
  }
  return false;
}
