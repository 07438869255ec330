// The verifier's own abstention, when no sentence of an answer is backed. The `NOT_FOUND:`
// rule itself is defined once in src/domain/abstention.ts.

import { notFound } from '../../domain/abstention';

export const NOT_FOUND_UNSUPPORTED = notFound('the documents I found do not support an answer.');
/** Built-in grounding: nothing the provider's search returned backs a sentence. */
export const NOT_FOUND_UNGROUNDED = notFound('the search results do not support an answer.');
/** The model abstained with a reason that cannot be shown as it is (a link, an address, markup). */
export const NOT_FOUND_MODEL = notFound('the model found no answer in the documents.');
