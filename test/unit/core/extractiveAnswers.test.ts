// Issue 9, item 5: extractive answers that read right (our own fictional policies).

import * as assert from 'node:assert/strict';
import { answer } from '../../../src/core/models/extractiveModel';

const SICK = {
  id: 'E1',
  heading: 'Leave > Advanced sick leave',
  text: ['You can request up to 240 hours of advanced sick leave.', 'For example, a part-time employee accrues 2 hours per pay period.', 'Therefore, you can request up to 104 advanced sick leave hours.'].join('\n'),
};
const SICK_AGAIN = { id: 'E2', heading: 'Leave > Advanced sick leave > Requests', text: 'You can request up to 240 hours of advanced sick leave.' };
const APPROVAL = { id: 'E3', heading: 'Leave > Approval', text: 'Your supervisor approves advanced sick leave requests in writing.' };

describe('extractive answers that read right', () => {
  it('never says the same sentence twice, and never gives a worked example\'s figure as the rule', () => {
    const text = answer('How many hours of advanced sick leave can I request?', [SICK, SICK_AGAIN]);
    assert.equal(text.match(/240 hours/g)?.length, 1, text);
    assert.doesNotMatch(text, /104/);
    assert.doesNotMatch(text, /For example/);
  });

  it('covers each part of a two-part question with its own sentence', () => {
    const text = answer('How many hours of advanced sick leave can I request, and who approves it?', [SICK, APPROVAL]);
    assert.match(text, /240 hours.*\[E1\]/);
    assert.match(text, /supervisor approves.*\[E3\]/);
  });
});
