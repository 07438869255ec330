// How the dashboard writes numbers and names: percentages, means, and the labels of the charts'
// series (one place, used by the charts and their data tables alike).

export const pct = (r: number | null): string => (r === null ? '—' : `${(r * 100).toFixed(1)}%`);
export const num = (n: number): string => n.toFixed(1);

export type SeriesKey = 'meanRetrieved' | 'meanCoverage' | 'dropRate' | 'abstentionRate';

export const SERIES: { key: SeriesKey; label: string; rate: boolean; color: string }[] = [
  { key: 'abstentionRate', label: 'Abstention rate', rate: true, color: '--vscode-charts-orange' },
  { key: 'dropRate', label: 'Drop rate', rate: true, color: '--vscode-charts-red' },
  { key: 'meanCoverage', label: 'Citation coverage', rate: true, color: '--vscode-charts-green' },
  { key: 'meanRetrieved', label: 'Passages retrieved (mean)', rate: false, color: '--vscode-charts-blue' },
];

export const RULE_LABEL: Record<'recent' | 'model-change' | 'index-change' | 'topic', string> = {
  recent: 'Recent turns',
  'model-change': 'After a model change',
  'index-change': 'After an index change',
  topic: 'Topic',
};

export function shortTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}
