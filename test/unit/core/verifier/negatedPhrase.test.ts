// A negated phrase the passage negates as a phrase, with another verb before it (negatedPhrase.ts):
// "doesn't get FedRAMP authorization" where the passage says "does not receive FedRAMP
// authorization". Made-up passages and sentences.

import * as assert from 'node:assert/strict';
import { negatesPhrase } from '../../../../src/core/verifier/negatedPhrase';
import { lexicalChecks } from '../../../support/lexicalChecks';

const P = {
  negated:
    'Light SaaS tools\nA light authorization is limited to one year. The vendor must work towards getting FedRAMP authorization. If the vendor does not wish to pursue FedRAMP authorization, or if the tool does not receive FedRAMP authorization, the tool will no longer be approved for use.',
  affirmed:
    'Light SaaS tools\nA light authorization is limited to one year. The tool receives FedRAMP authorization within a year, and the tool will no longer need a light authorization.',
  hosting:
    'Pages\nPages is intended to host static web pages as a showcase for personal projects. Pages is not intended to be used as a free web hosting service to run your online business.',
  elsewhere:
    'Pages\nPages is not intended for large files. Pages is a free web hosting service for your online business and personal projects.',
};
const { expectKept, expectDropped } = lexicalChecks(P);
const NEEDS = new Set(['need', 'requir']);

describe('negatedPhrase: the passage negates the phrase with another verb before it', () => {
  it('reads the two words after the head in one clause a negation opens', () => {
    // One unit (sentence) of the passage, as the polarity check reads it.
    const unit = P.negated.slice(P.negated.indexOf('If the vendor'));
    assert.equal(negatesPhrase(unit, 'get', ['fedramp', 'author'], NEEDS), true);
    assert.equal(negatesPhrase(P.hosting, 'free', ['web', 'host'], NEEDS), true);
    assert.equal(negatesPhrase(P.affirmed, 'get', ['fedramp', 'author'], NEEDS), false, 'no negation before them');
    assert.equal(
      negatesPhrase(P.elsewhere, 'free', ['web', 'host'], NEEDS),
      false,
      'the negated clause holds other words',
    );
    assert.equal(negatesPhrase(P.negated, 'get', ['fedramp'], NEEDS), false, 'one word is no phrase');
    const logo = 'Acme shall acquire no rights to use the sponsor logo, and an interest in it.';
    assert.equal(
      negatesPhrase(logo, 'interest', ['sponsor', 'logo'], NEEDS),
      false,
      'the head stands outside the clause',
    );
    const meeting = 'Contractors are not required to attend the kickoff meeting.';
    assert.equal(negatesPhrase(meeting, 'attend', ['kickoff', 'meet'], NEEDS), false, 'a negated need forbids nothing');
  });

  it('keeps "doesn\'t get FedRAMP authorization" where the passage says "does not receive FedRAMP authorization"', async () => {
    await expectKept(
      "If the tool doesn't get FedRAMP authorization, it will no longer be approved for use [E1].",
      P.negated,
    );
  });

  it('keeps "not as a free web hosting service" against "not intended to be used as a free web hosting service"', async () => {
    await expectKept(
      'Pages is meant to host static web pages for personal projects, not as a free web hosting service to run your online business [E1].',
      P.hosting,
    );
  });

  it('drops the same negations where the passage affirms the phrase, or negates something else', async () => {
    await expectDropped(
      "The tool doesn't get FedRAMP authorization within a year [E1].",
      P.affirmed,
      'negation-mismatch',
    );
    await expectDropped(
      'Pages is meant for personal projects, not as a free web hosting service for your online business [E1].',
      P.elsewhere,
      'negation-mismatch',
    );
  });
});
