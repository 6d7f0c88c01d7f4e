// When a failed delivery is tried again. The Standard Webhooks schedule
// (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, …) from a configurable
// first delay: each next wait is a multiple of the first, with jitter so that
// destinations that failed together do not all come back in the same second.

/** Multiples of the first delay (5 s by default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h). */
const STEPS = [1, 60, 360, 1440, 3600, 7200];

/** Failing this long, a destination is marked failing (and the workspace's other destinations hear of it). */
export const FAILING_AFTER_MS = 24 * 3_600_000;
/** Failing this long, it is disabled; its cursor stays where it stopped. */
export const GIVE_UP_MS = 72 * 3_600_000;

/** The wait before the n-th retry (n ≥ 1), ±10 %. */
export function retryDelayMs(n: number, baseMs: number, random = Math.random): number {
  const step = STEPS[Math.min(n, STEPS.length) - 1]!;
  return Math.round(baseMs * step * (0.9 + 0.2 * random()));
}
