import { strict as assert } from 'node:assert';
import { chunkMarkdown, documentVersion } from '../../../../src/core/docs/chunker';

const DOC = [
  '---', // 1
  'title: Refund Policy', // 2
  'owner: finance', // 3
  '---', // 4
  '', // 5
  '## Monthly plans', // 6
  '', // 7
  'Monthly plans are not refundable. You can cancel at any time.', // 8
  '', // 9
  '## Annual plans', // 10
  '', // 11
  'Annual plans are refundable pro rata within 90 days of purchase.', // 12
  '', // 13
  '### How to cancel auto-renewal', // 14
  '', // 15
  '1. Open **Billing**.', // 16
  '2. Choose *Cancel renewal*.', // 17
  '', // 18
  '| Plan | Refund |', // 19
  '| --- | --- |', // 20
  '| Monthly | none |', // 21
  '| Annual | pro rata |', // 22
].join('\n');

describe('chunker: Markdown to passages', () => {
  const { title, passages } = chunkMarkdown('refunds.md', DOC);

  it('reads the front-matter title and uses it as the root of heading paths when there is no H1', () => {
    assert.equal(title, 'Refund Policy');
    assert.deepEqual(passages[0].headingPath, ['Refund Policy', 'Monthly plans']);
    assert.equal(passages[0].heading, 'Refund Policy > Monthly plans');
  });

  it('never lets front matter become passage text', () => {
    assert.ok(passages.every((p) => !p.text.includes('owner: finance')));
  });

  it('keeps each section in its own passages with 1-based line ranges of the source', () => {
    assert.deepEqual(
      passages.map((p) => [p.heading, p.startLine, p.endLine]),
      [
        ['Refund Policy > Monthly plans', 8, 8],
        ['Refund Policy > Annual plans', 12, 12],
        ['Refund Policy > Annual plans > How to cancel auto-renewal', 16, 22],
      ],
    );
    const lines = DOC.split('\n');
    assert.equal(lines[passages[1].startLine - 1], 'Annual plans are refundable pro rata within 90 days of purchase.');
  });

  it('renders lists and tables as plain text without Markdown syntax', () => {
    const steps = passages[2].text;
    assert.match(steps, /^1\. Open Billing\.$/m);
    assert.match(steps, /^2\. Choose Cancel renewal\.$/m);
    assert.match(steps, /^Annual \| pro rata$/m);
    assert.ok(!steps.includes('**') && !steps.includes('---'));
  });

  it('gives stable ids: editing one section does not change the ids of the others', () => {
    const edited = chunkMarkdown(
      'refunds.md',
      DOC.replace('You can cancel at any time.', 'You can cancel whenever you like.'),
    );
    assert.notEqual(edited.passages[0].id, passages[0].id);
    assert.equal(edited.passages[1].id, passages[1].id);
    assert.equal(edited.passages[2].id, passages[2].id);
    assert.notEqual(
      edited.passages[1].version,
      passages[1].version,
      'the document version is the hash of the whole file',
    );
  });

  it('stamps every passage with the document version (content hash)', () => {
    assert.ok(passages.every((p) => p.version === documentVersion(DOC)));
    assert.match(passages[0].version, /^[0-9a-f]{16}$/);
  });

  it('splits a long section at list-item boundaries and keeps passages within the word budget', () => {
    const items = Array.from(
      { length: 40 },
      (_, i) => `- Rule ${i + 1}: employees must file form ${i + 1} within ten business days of the trip.`,
    );
    const doc = ['# Travel', '', ...items].join('\n');
    const result = chunkMarkdown('travel.md', doc, { maxWords: 60 });
    assert.ok(result.passages.length > 5, `expected several passages, got ${result.passages.length}`);
    for (const p of result.passages) {
      assert.ok(p.text.split(/\s+/).length <= 60, `passage too long: ${p.text.length}`);
      assert.match(p.text, /^- Rule \d+:/, 'each passage starts at an item boundary');
      assert.equal(doc.split('\n')[p.startLine - 1].startsWith('- Rule'), true);
    }
    const covered = result.passages.flatMap((p) => p.text.split('\n'));
    assert.equal(covered.length, 40, 'no item lost or duplicated');
  });

  it('never splits a code block, even a long one', () => {
    const code = Array.from({ length: 80 }, (_, i) => `echo step ${i} of the incident runbook`).join('\n');
    const doc = ['# Runbook', '', 'Run this:', '', '```sh', code, '```', '', 'Then page the on-call lead.'].join('\n');
    const result = chunkMarkdown('runbook.md', doc, { maxWords: 50 });
    const withCode = result.passages.filter((p) => p.text.includes('echo step'));
    assert.equal(withCode.length, 1);
    assert.ok(withCode[0].text.includes('echo step 0 ') && withCode[0].text.includes('echo step 79 '));
    assert.equal(withCode[0].startLine, 5);
    assert.equal(withCode[0].endLine, 86 - 5 + 5);
  });

  it('splits a long table by rows and repeats the header row in each part', () => {
    const rows = Array.from(
      { length: 30 },
      (_, i) => `| City ${i} | ${100 + i} dollars per night for lodging in the city |`,
    );
    const doc = ['# Per diem', '', '| City | Lodging limit |', '| --- | --- |', ...rows].join('\n');
    const result = chunkMarkdown('perdiem.md', doc, { maxWords: 80 });
    assert.ok(result.passages.length > 2);
    for (const p of result.passages) assert.match(p.text, /^City \| Lodging limit$/m);
    const cities = result.passages.flatMap((p) =>
      p.text.split('\n').filter((l) => l.startsWith('City ') && !l.includes('Lodging')),
    );
    assert.equal(cities.length, 30);
  });

  it('keeps the text of raw HTML blocks but not their tags or scripts', () => {
    const doc =
      '# Notes\n\n<div class="note">Badges must be worn <b>at all times</b>.</div>\n\n<script>alert(1)</script>\n';
    const { passages: ps } = chunkMarkdown('notes.md', doc);
    assert.equal(ps.length, 1);
    assert.equal(ps[0].text, 'Badges must be worn at all times.');
  });

  it('yields no passages for an empty document or one with headings only', () => {
    assert.deepEqual(chunkMarkdown('empty.md', '').passages, []);
    assert.deepEqual(chunkMarkdown('h.md', '# A\n\n## B\n').passages, []);
  });

  it('survives malformed front matter', () => {
    const { passages: ps } = chunkMarkdown('bad.md', '---\ntitle: [unclosed\n---\n\nStill indexed text here.\n');
    assert.equal(ps.length, 1);
    assert.equal(ps[0].text, 'Still indexed text here.');
  });
});

describe('chunker: Markdown plumbing never reaches passage text', () => {
  // A page written the way site generators (Jekyll, Eleventy, GitHub Docs) write them.
  const PAGE = [
    '---', // 1
    'title: Parking permits', // 2
    '---', // 3
    '', // 4
    '{% include "banner.html"', // 5
    '  tone: info %}', // 6
    '<!-- prettier-ignore -->', // 7
    '## Who issues permits', // 8
    '', // 9
    'Permits are issued by the [front desk][desk-page] within two days.', // 10
    'See the [visitor rules]({% page "/visitors/rules/" %}) first.', // 11
    '', // 12
    '[desk-page]: {% page "/offices/front-desk/" %}', // 13
    '[map]:{% page "/offices/map/#floor-2" %}', // 14
    '', // 15
    'Ask in {% slack_channel "parking-help" %} if a permit is lost.', // 16
    'Badges cost {{ site.badge_fee }} nothing for staff.<!-- check the fee -->', // 17
    '', // 18
    '{% comment %}', // 19
    'Old rule: permits expire after 30 days.', // 20
    '{% endcomment %}', // 21
    '{% alert "note" %}', // 22
    'Carpools get the front row.', // 23
    '{% endalert %}', // 24
    '', // 25
    '```liquid', // 26
    '{% page "/kept/in/code/" %}', // 27
    '```', // 28
    '', // 29
    'Write `{{ page.title }}` to show the title; {% raw %}{% page "/x/" %}{% endraw %} links a page.', // 30
  ].join('\n');
  const { passages } = chunkMarkdown('parking.md', PAGE);
  const all = passages.map((p) => p.text).join('\n');

  it('drops link reference definitions whose destination is a template tag, and keeps the links’ text', () => {
    assert.ok(!all.includes('desk-page'), all);
    assert.ok(!all.includes('[map]'), all);
    assert.match(all, /Permits are issued by the front desk within two days\./);
    assert.match(all, /See the visitor rules first\./);
  });

  it('drops template tags ({% … %}, multi-line ones, {{ … }}) and comment blocks, keeping the text between block tags', () => {
    const prose = all
      .split('\n')
      .filter((line) => !line.includes('/kept/in/code/') && !line.startsWith('Write '))
      .join('\n');
    assert.ok(prose.includes('Carpools') && prose.includes('Permits are issued'), prose);
    assert.ok(!/\{%|%\}|\{\{|\}\}|banner\.html|badge_fee|\/visitors\//.test(prose), prose);
    assert.ok(!all.includes('30 days'), 'a {% comment %} block is not content');
    assert.match(all, /Carpools get the front row\./);
    assert.match(all, /Badges cost nothing for staff\./);
  });

  it('reads a Slack channel tag as the channel name', () => {
    assert.match(all, /Ask in #parking-help if a permit is lost\./);
  });

  it('drops HTML comments, inline and on their own line', () => {
    assert.ok(!all.includes('prettier') && !all.includes('check the fee'), all);
  });

  it('leaves code as written: fenced code, inline code and {% raw %} content', () => {
    assert.ok(all.includes('{% page "/kept/in/code/" %}'), all);
    assert.ok(all.includes('{{ page.title }}'), all);
    assert.ok(all.includes('{% page "/x/" %} links a page.'), all);
    assert.ok(!all.includes('{% raw %}'), all);
  });

  it('keeps exact line ranges: every passage starts and ends on the source lines that hold its text', () => {
    const lines = PAGE.split('\n');
    const where = (text: string) => lines.findIndex((l) => l.includes(text)) + 1;
    const issued = passages.find((p) => p.text.includes('Permits are issued'))!;
    assert.equal(issued.startLine, where('Permits are issued'));
    assert.equal(issued.heading, 'Parking permits > Who issues permits');
    for (const p of passages) {
      assert.ok(p.startLine >= 1 && p.endLine <= lines.length && p.startLine <= p.endLine);
      const first = p.text.split('\n')[0].split(' ').slice(0, 2).join(' ');
      assert.ok(
        lines
          .slice(p.startLine - 1, p.endLine)
          .join('\n')
          .includes(first.replace(/^- /, '')),
        `${first} not in lines ${p.startLine}-${p.endLine}`,
      );
    }
    const carpool = passages.find((p) => p.text.includes('Carpools'))!;
    assert.ok(carpool.startLine <= where('Carpools') && carpool.endLine >= where('Carpools'));
  });

  it('cleans headings too, and leaves a page without plumbing byte for byte as it was parsed before', () => {
    const { passages: ps } = chunkMarkdown('h.md', '# Leave {{ site.year }}<!-- draft -->\n\nTake it.\n');
    assert.equal(ps[0].heading, 'Leave');
    const plain = '# Leave\n\nTake it [here](https://example.org/a).\n\n[ref]: https://example.org/b\n';
    assert.deepEqual(
      chunkMarkdown('p.md', plain).passages.map((p) => p.text),
      ['Take it here.'],
    );
  });
});
