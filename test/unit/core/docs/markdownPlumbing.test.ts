import { strict as assert } from 'node:assert';
import { withoutPlumbing } from '../../../../src/core/docs/markdownPlumbing';

describe('Markdown plumbing: template tags and comments blanked in place', () => {
  const SAMPLE = [
    'Intro {{ site.name }} text.',
    '{% include "card.html"',
    '   title: "Two lines" %}',
    '[guide]: {% page "/travel/guide/" %}',
    'Go to [the form]({% page "/forms/#leave" %}) or <!-- a note',
    'spanning lines --> ask in {% slack_channel "help-desk" %}.',
    '\r',
    '```',
    '{{ kept }}',
    '```',
  ].join('\n');

  it('keeps the length and every line break, so positions and line numbers do not move', () => {
    const out = withoutPlumbing(SAMPLE);
    assert.equal(out.length, SAMPLE.length);
    assert.deepEqual(
      [...out.matchAll(/\r|\n/g)].map((m) => m.index),
      [...SAMPLE.matchAll(/\r|\n/g)].map((m) => m.index),
    );
  });

  it('turns a tag in a link destination into "#", a Slack channel tag into the channel, and blanks the rest', () => {
    const lines = withoutPlumbing(SAMPLE)
      .split('\n')
      .map((l) => l.replace(/\s+/g, ' ').trim());
    assert.deepEqual(lines.slice(0, 6), [
      'Intro text.',
      '',
      '',
      '[guide]: #',
      'Go to [the form](# ) or',
      'ask in #help-desk .',
    ]);
    assert.equal(lines[8], '{{ kept }}');
  });

  it('returns text without plumbing unchanged, and leaves front matter alone', () => {
    const plain = '# Title\n\nNo tags { here }, just braces.\n';
    assert.equal(withoutPlumbing(plain), plain);
    const fm = '---\ntitle: "{{ not touched }}"\n---\n\nBody {{ x }}.\n';
    assert.equal(
      withoutPlumbing(fm),
      `---\ntitle: "{{ not touched }}"\n---\n\nBody ${' '.repeat('{{ x }}'.length)}.\n`,
    );
  });

  it('does not swallow text after an unclosed tag or an unclosed comment', () => {
    assert.equal(
      withoutPlumbing('Half {% tag never closed\n\nNext paragraph.'),
      'Half {% tag never closed\n\nNext paragraph.',
    );
    assert.equal(withoutPlumbing('A <!-- comment never closed\nB'), 'A <!-- comment never closed\nB');
  });
});
