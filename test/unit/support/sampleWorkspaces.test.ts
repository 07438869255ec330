// Keeps the sample workspace, its evaluation set and the fixture workspaces honest: every
// answerable question is answerable from its gold files, every unanswerable one really is not
// covered, questions are not copied from the text, and the fixtures hold what their README says.

import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { readJsonl, requireString, requireStringArray } from '../../../src/core/jsonl';
import { LAUNDERED_SENTENCE } from '../../support/fakeGeminiModes';

const ROOT = join(__dirname, '..', '..', '..');
const SAMPLES = join(ROOT, 'samples');
const FIXTURES = join(ROOT, 'test', 'fixtures');

interface EvalItem {
  id: string;
  question: string;
  answerable: boolean;
  answer_keywords: string[];
  gold_files: string[];
}

/** Terms whose absence from every sample document makes each unanswerable question unanswerable. */
const NOT_COVERED: Record<string, RegExp[]> = {
  'no-parental-japan': [/\bjapan/i],
  'no-business-class': [/business class/i, /first class/i, /premium economy/i, /\bseat class/i],
  'no-401k': [/401/, /\bpension/i, /\bretirement/i],
  'no-wellness': [/\bwellness/i, /\bgym\b/i],
  'no-dress-code': [/\bdress/i],
  'no-resignation-notice': [/\bresign/i, /notice period/i],
  'no-enterprise-refund': [/\benterprise/i],
  'no-vpn-client': [/vpn (client|app)/i],
  'no-dogs': [/\bdogs?\b/i, /\bpets?\b/i],
  'no-relocation': [/\breloca/i],
};

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9$%]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

function checkEvalItem(value: Record<string, unknown>): string | undefined {
  return (
    requireString(value, 'id') ??
    requireString(value, 'question') ??
    (typeof value.answerable === 'boolean' ? undefined : '"answerable" must be a boolean') ??
    requireStringArray(value, 'answer_keywords') ??
    requireStringArray(value, 'gold_files')
  );
}

describe('sample workspace (samples/)', () => {
  let docs: Map<string, string>;
  let items: EvalItem[];

  before(async () => {
    docs = new Map();
    for (const file of await markdownFiles(SAMPLES)) docs.set(file, await readFile(join(SAMPLES, file), 'utf8'));
    items = await readJsonl<EvalItem>(join(SAMPLES, 'eval-set.jsonl'), checkEvalItem);
  });

  it('holds 6–9 policy documents and no README', () => {
    assert.ok(docs.size >= 6 && docs.size <= 9, `found ${docs.size}`);
    assert.deepEqual(
      [...docs.keys()].filter((f) => /readme/i.test(f)),
      [],
    );
  });

  it('gives every document front matter with title, owner and effective date', () => {
    for (const [file, text] of docs) {
      const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
      assert.ok(match, `${file}: no front matter`);
      const meta = parseYaml(match[1]) as Record<string, unknown>;
      for (const key of ['title', 'owner', 'effective']) assert.ok(meta[key], `${file}: front matter lacks ${key}`);
    }
  });

  it('covers the topics the product is demonstrated with', () => {
    const all = [...docs.values()].join('\n');
    for (const fact of [
      'Monthly plans are not refundable',
      'Annual plans are refundable pro rata within 90 days of purchase',
      'Turn off auto-renewal',
      '```bash',
      '| Tier 1 |',
      '25 days',
      '14 characters',
    ]) {
      assert.ok(all.includes(fact), `missing: ${fact}`);
    }
  });

  it('has a valid evaluation set: unique ids, about 24 answerable and 10 unanswerable questions', () => {
    assert.equal(new Set(items.map((i) => i.id)).size, items.length, 'duplicate ids');
    const answerable = items.filter((i) => i.answerable);
    assert.ok(answerable.length >= 20 && answerable.length <= 30, `answerable: ${answerable.length}`);
    assert.ok(items.length - answerable.length >= 8, `unanswerable: ${items.length - answerable.length}`);
  });

  it('answers every answerable question in its gold files, with 1–3 keywords found there', () => {
    for (const item of items.filter((i) => i.answerable)) {
      assert.ok(item.answer_keywords.length >= 1 && item.answer_keywords.length <= 3, `${item.id}: keyword count`);
      assert.ok(item.gold_files.length >= 1, `${item.id}: no gold file`);
      for (const gold of item.gold_files) assert.ok(docs.has(gold), `${item.id}: gold file ${gold} does not exist`);
      for (const keyword of item.answer_keywords) {
        const found = item.gold_files.some((gold) => docs.get(gold)!.toLowerCase().includes(keyword.toLowerCase()));
        assert.ok(found, `${item.id}: keyword "${keyword}" is in none of its gold files`);
        assert.ok(
          !item.question.toLowerCase().includes(keyword.toLowerCase()),
          `${item.id}: keyword "${keyword}" is given away by the question`,
        );
      }
    }
  });

  it('keeps unanswerable questions uncovered by every document', () => {
    for (const item of items.filter((i) => !i.answerable)) {
      assert.deepEqual(
        [item.answer_keywords, item.gold_files],
        [[], []],
        `${item.id}: unanswerable items carry no keywords or gold files`,
      );
      const terms = NOT_COVERED[item.id];
      assert.ok(terms, `${item.id}: add the terms that prove it is not covered to NOT_COVERED`);
      for (const [file, text] of docs) {
        for (const term of terms) assert.ok(!term.test(text), `${item.id}: ${file} mentions ${term}`);
      }
    }
  });

  it('supports no part of the fake model’s laundered sentence (so the verifier must drop it)', async () => {
    const everything = [...docs.values()];
    for (const folder of ['mini', 'hostile']) {
      for (const file of await markdownFiles(join(FIXTURES, folder))) {
        everything.push(await readFile(join(FIXTURES, folder, file), 'utf8'));
      }
    }
    for (const claim of [/company car\b/i, /\b57\b/, /extra vacation/i]) {
      assert.match(LAUNDERED_SENTENCE, claim);
      for (const text of everything) assert.ok(!claim.test(text), `a document supports ${claim}`);
    }
  });

  it('phrases questions as users would, not copied from the text (no 6-word run shared)', () => {
    const corpus = ` ${[...docs.values()].map((t) => words(t).join(' ')).join(' | ')} `;
    for (const item of items) {
      const w = words(item.question);
      for (let i = 0; i + 6 <= w.length; i++) {
        const run = w.slice(i, i + 6).join(' ');
        assert.ok(!corpus.includes(` ${run} `), `${item.id}: "${run}" is copied from a document`);
      }
    }
  });
});

describe('fixture workspaces (test/fixtures/)', () => {
  async function lines(file: string): Promise<string[]> {
    return (await readFile(join(FIXTURES, file), 'utf8')).split(/\r?\n/);
  }

  it('mini/ holds the documents and facts its README promises, at the stated lines', async () => {
    assert.deepEqual(await markdownFiles(join(FIXTURES, 'mini')), ['handbook.md', 'notes/crlf-notes.md', 'pricing.md']);
    const handbook = await lines('mini/handbook.md');
    assert.equal(handbook[0], '---');
    assert.equal(handbook[5], '---');
    assert.match(handbook[7], /before the first heading/);
    assert.match(handbook[13], /09:00 to 17:30/);
    assert.match(handbook[34], /within 10 business days/);
    assert.match((await lines('mini/pricing.md'))[7], /\| Team \| \$29 \|/);
    assert.match((await lines('mini/notes/crlf-notes.md'))[6], /Refunds take 14 days/);
    const pricing = await readFile(join(FIXTURES, 'mini', 'pricing.md'), 'utf8');
    assert.match(pricing, /```sh\n# this line is a comment/);
    assert.match(pricing, /Setup guide\n-{3,}/);
  });

  it('mini/notes/crlf-notes.md keeps its CRLF line endings', async () => {
    const raw = await readFile(join(FIXTURES, 'mini', 'notes', 'crlf-notes.md'), 'utf8');
    assert.ok(raw.includes('\r\n') && !/[^\r]\n/.test(raw), 'every line must end in CRLF');
  });

  it('hostile/ holds each payload and one ordinary answerable paragraph', async () => {
    const parking = await readFile(join(FIXTURES, 'hostile', 'parking.md'), 'utf8');
    const notes = await readFile(join(FIXTURES, 'hostile', 'assistant-notes.md'), 'utf8');
    assert.match((await lines('hostile/parking.md'))[10], /up to 3 days per month/);
    for (const payload of [
      '<script>alert(1)</script>',
      '<img src=x onerror=',
      '](javascript:alert(1))',
      'href="javascript:',
      '<iframe',
      '<style>',
      'data:text/html',
    ]) {
      assert.ok(parking.includes(payload), `parking.md lacks ${payload}`);
    }
    assert.match(notes, /ignore all previous instructions/i);
    assert.match(notes, /http:\/\/evil\.example/);
    assert.match(notes, /\[E99\]/);
    assert.ok(notes.includes('\u202e') && notes.includes('\u200b'), 'unicode tricks present');
    assert.ok(!existsSync(join(FIXTURES, 'hostile', 'README.md')));
  });
});
