// The support threshold's bounds: the calibrated default (chosen on the dev split of the
// model-shaped answers and on WiCE dev, docs/verifier.md: with anchors strict, wording may be lenient)
// and the floor that a workspace's own settings cannot go under. A repository's settings may
// make the verifier stricter, never more lenient than the default: a lenient check is the worst
// defect we can ship. The user's own settings and the CLI's --threshold are the user's choice.

export const DEFAULT_THRESHOLD = 0.55;

/** The lowest threshold a workspace (a repository's `.vscode/settings.json`) can set. */
export const WORKSPACE_THRESHOLD_FLOOR = DEFAULT_THRESHOLD;

/** A threshold that came from workspace settings, raised to the floor when under it. */
export function boundWorkspaceThreshold(value: number): number {
  return Math.max(value, WORKSPACE_THRESHOLD_FLOOR);
}
