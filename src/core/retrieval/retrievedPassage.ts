// What a search returns, whichever store or ranking ran it: a passage and its score, best first.
// Types only: the store port, the index worker's messages and the agent loop import it without
// reaching any ranking or store.

import type { Passage } from '../../domain/types';

export interface RetrievedPassage {
  passage: Passage;
  score: number;
}
