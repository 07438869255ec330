// Internal (citation links): opens the passage an evidence id of a turn stands for, at its lines.

import { Commands } from '../../shared/ids';
import { isEvidenceId, isTurnId } from '../../shared/protocol';
import type { EvidentCommand } from './command';

export const openEvidence: EvidentCommand = {
  id: Commands.openEvidence,
  async run({ sources }, turnId?: unknown, evidenceId?: unknown) {
    return isTurnId(turnId) && isEvidenceId(evidenceId) ? sources.open(turnId, evidenceId) : undefined;
  },
};
