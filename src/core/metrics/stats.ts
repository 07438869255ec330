// The two tests the drift alerts use, with their formulas in one place (docs/metrics.md explains
// the choice): a two-proportion z-test for rates (abstentions per turn, drops per factual
// sentence) and a two-sample z-test of means with unequal variances (Welch's statistic, normal
// approximation) for per-turn citation coverage. Both are large-sample tests: callers enforce
// minimum counts before trusting them.

/** z of recent vs baseline proportions (positive: recent is higher), pooled standard error. */
export function twoProportionZ(baseHits: number, baseN: number, recentHits: number, recentN: number): number {
  if (baseN <= 0 || recentN <= 0) return 0;
  const p1 = baseHits / baseN;
  const p2 = recentHits / recentN;
  const pooled = (baseHits + recentHits) / (baseN + recentN);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / baseN + 1 / recentN));
  if (se === 0) return p1 === p2 ? 0 : Math.sign(p2 - p1) * Infinity;
  return (p2 - p1) / se;
}

/** z of recent vs baseline means (positive: recent is higher), Welch's standard error. */
export function twoMeansZ(base: readonly number[], recent: readonly number[]): number {
  if (base.length < 2 || recent.length < 2) return 0;
  const m1 = mean(base);
  const m2 = mean(recent);
  const se = Math.sqrt(variance(base, m1) / base.length + variance(recent, m2) / recent.length);
  if (se === 0) return m1 === m2 ? 0 : Math.sign(m2 - m1) * Infinity;
  return (m2 - m1) / se;
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

/** Sample variance (n − 1). */
function variance(values: readonly number[], m: number): number {
  return values.reduce((a, v) => a + (v - m) ** 2, 0) / (values.length - 1);
}
