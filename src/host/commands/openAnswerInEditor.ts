// Evident: Open Answer in Editor — the given turn's answer (or the current one) as a read-only document.

import { Commands } from '../../shared/ids';
import { isTurnId } from '../../shared/protocol';
import type { EvidentCommand } from './command';

export const openAnswerInEditor: EvidentCommand = {
  id: Commands.openAnswerInEditor,
  async run({ session, answers }, turnId?: unknown) {
    const id = isTurnId(turnId) ? turnId : session.current?.id;
    if (!id || !session.find(id)?.result) throw new Error('There is no answer to open yet: ask a question first.');
    await answers.open(id);
  },
};
