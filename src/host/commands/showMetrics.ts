// Evident: Show Metrics — the metrics dashboard: drift alerts, the four numbers over time, by
// topic and by model (metricsDashboard.ts). The raw log stays reachable (openMetrics.ts).

import { Commands } from '../../shared/ids';
import type { EvidentCommand } from './command';

export const showMetrics: EvidentCommand = {
  id: Commands.showMetrics,
  run({ index, dashboard }) {
    if (!index.metricsLogPath) {
      throw new Error('Open a folder first: the metrics come from the questions asked in a workspace.');
    }
    dashboard.show();
  },
};
