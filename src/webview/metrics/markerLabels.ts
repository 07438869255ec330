// Where the numbered labels of the change markers go on a chart: markers close together would
// print their labels over each other (unreadable), so each label takes the first row, from the
// top, where it does not touch the label before it. Pure: unit-tested without a canvas.

/** The row (0 = top) of each label, for labels of `width` centred-left at `xs` (any order), `gap` apart at least. */
export function placeMarkerLabels(xs: readonly number[], width: number, gap = 2): number[] {
  const order = xs.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x);
  const rowEnds: number[] = [];
  const rows = new Array<number>(xs.length).fill(0);
  for (const { x, i } of order) {
    let row = rowEnds.findIndex((end) => end + gap <= x);
    if (row < 0) row = rowEnds.length;
    rowEnds[row] = x + width;
    rows[i] = row;
  }
  return rows;
}
