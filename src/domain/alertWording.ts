// A drift alert in plain words, for the people who read the dashboard and the notification: what
// changed (a headline and the figures, "since the model changed to extractive"), and what to do
// about it. The statistics behind it (the test, z, the windows) stay in the alert's `reason`, for
// whoever wants them. One wording for the dashboard and the notification. Pure.

import type { AlertMetric, AlertRule, MetricsAlert, MetricsChange } from './metricsReport';

export interface AlertWording {
  /** "More questions go unanswered". */
  headline: string;
  /** The figures, with when or where: "Since the model changed to extractive, 41% of questions were not answered from the documents, up from 8% before." */
  detail: string;
  /** What to do about it. */
  advice: string;
}

const HEADLINE: Record<AlertMetric, string> = {
  abstained: 'More questions go unanswered',
  dropped: 'More sentences are removed as unsupported',
  coverage: 'Fewer sentences are backed by the passage they cite',
};

const percent = (rate: number): string => `${Math.round(rate * 100)}%`;

/** The latest change of this kind (the dashboard's changes are in turn order). */
function latestChange(changes: readonly MetricsChange[], kind: MetricsChange['kind']): MetricsChange | undefined {
  return changes.filter((c) => c.kind === kind).at(-1);
}

function window(rule: AlertRule, alert: Pick<MetricsAlert, 'topic'>, changes: readonly MetricsChange[]): string {
  switch (rule) {
    case 'recent':
      return 'Recently';
    case 'model-change': {
      const change = latestChange(changes, 'model');
      return change ? `Since the model changed to ${change.to}` : 'Since the model changed';
    }
    case 'index-change':
      return 'Since the index changed';
    case 'topic':
      return `Recently, on “${alert.topic ?? 'one topic'}”`;
  }
}

function figures(alert: Pick<MetricsAlert, 'metric' | 'baseline' | 'recent'>, when: string): string {
  const [now, before] = [percent(alert.recent.rate), percent(alert.baseline.rate)];
  switch (alert.metric) {
    case 'abstained':
      return `${when}, ${now} of questions were not answered from the documents, up from ${before} before.`;
    case 'dropped':
      return `${when}, ${now} of the sentences in answers were removed because their passage did not back them, up from ${before} before.`;
    case 'coverage':
      return `${when}, ${now} of the sentences in answers were backed by the passage they cite, down from ${before} before.`;
  }
}

function advice(alert: Pick<MetricsAlert, 'metric' | 'rule' | 'topic'>, changes: readonly MetricsChange[]): string {
  const unanswered = alert.metric === 'abstained';
  switch (alert.rule) {
    case 'model-change': {
      const change = latestChange(changes, 'model');
      const before = change ? ` (${change.from})` : '';
      return unanswered
        ? `The new model may answer fewer questions than the one before${before}: compare a few answers, and switch back with “Evident: Choose Model…” if they are worse.`
        : `The new model may not keep to its passages as well as the one before${before}: read the removed sentences of a few answers, and switch back with “Evident: Choose Model…” if they are worse.`;
    }
    case 'index-change':
      return unanswered
        ? 'Documents or index settings changed: check that the files people ask about are still indexed (the include and exclude settings, skipped files in the log), then reindex.'
        : 'Documents changed: check that the cited files are current and reindex, then read the removed sentences of a few answers.';
    case 'topic':
      return unanswered
        ? `People ask about “${alert.topic ?? 'this topic'}” more than the documents cover it: add or update the documents on it, or check that they are indexed.`
        : `Answers on “${alert.topic ?? 'this topic'}” cite passages that do not back them: check that those documents are current and say what is asked.`;
    case 'recent':
      return unanswered
        ? 'Look at the recent unanswered questions: add the documents that are missing, or reindex if documents were removed or moved.'
        : 'Read the removed sentences of recent answers: the model may be writing more than its passages say; another model may keep closer to them.';
  }
}

export function describeAlert(
  alert: Pick<MetricsAlert, 'metric' | 'rule' | 'topic' | 'baseline' | 'recent'>,
  changes: readonly MetricsChange[],
): AlertWording {
  return {
    headline: HEADLINE[alert.metric],
    detail: figures(alert, window(alert.rule, alert, changes)),
    advice: advice(alert, changes),
  };
}
