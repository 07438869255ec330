// `evident verify --pairs`: verdicts of the product's verifier for claim/evidence pairs, and
// clear errors (exit 2, nothing printed) for bad input.

import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify } from '../../../../src/cli/commands/verify';
import { main } from '../../../../src/cli/main';
import type { CliIO } from '../../../../src/cli/io';

function capture(cwd: string): CliIO & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout: (t: string) => {
      io.out += t;
    },
    stderr: (t: string) => {
      io.err += t;
    },
    isTTY: false,
    cwd,
    env: {},
  };
  return io;
}

describe('evident verify', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evident-verify-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints one {id, supported, score} line per pair, in order, for string and list evidence', async () => {
    const pairs = [
      {
        id: 'a',
        claim: 'Annual plans are refundable within 90 days.',
        evidence: 'Annual plans are refundable pro rata within 90 days of purchase.',
      },
      {
        id: 2,
        claim: 'Annual plans are refundable within 30 days.',
        evidence: ['Annual plans are refundable pro rata', 'within 90 days of purchase.'],
      },
      {
        id: 'c',
        claim: 'Contractors receive stock options.',
        evidence: ['Annual plans are refundable within 90 days.'],
      },
    ];
    await writeFile(join(dir, 'pairs.jsonl'), pairs.map((p) => JSON.stringify(p)).join('\n') + '\n');
    const io = capture(dir);
    assert.equal(await verify(['--pairs', 'pairs.jsonl'], io), 0);
    const lines = io.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: unknown; supported: boolean; score: number });
    assert.deepEqual(
      lines.map((l) => [l.id, l.supported]),
      [
        ['a', true],
        [2, false],
        ['c', false],
      ],
    );
    assert.ok(lines[0].score > 0.5 && lines[2].score < 0.5);
    assert.equal(lines[1].score, 0);
  });

  it('applies --threshold', async () => {
    await writeFile(
      join(dir, 'one.jsonl'),
      JSON.stringify({
        id: 1,
        claim: 'Annual plans are refundable for loyal customers.',
        evidence: 'Annual plans are refundable.',
      }),
    );
    const low = capture(dir);
    const high = capture(dir);
    await verify(['--pairs', 'one.jsonl', '--threshold', '0.3'], low);
    await verify(['--pairs', 'one.jsonl', '--threshold', '0.95'], high);
    assert.equal(JSON.parse(low.out).supported, true);
    assert.equal(JSON.parse(high.out).supported, false);
  });

  it('names the malformed line and exits 2 without printing any verdict', async () => {
    await writeFile(
      join(dir, 'bad.jsonl'),
      [JSON.stringify({ id: 1, claim: 'x', evidence: 'x' }), '{"id": 2, "claim": "y"}'].join('\n'),
    );
    const io = capture(dir);
    assert.equal(await main(['verify', '--pairs', 'bad.jsonl'], io), 2);
    assert.equal(io.out, '');
    assert.match(io.err, /bad\.jsonl:2: "evidence" must be a string or an array of strings/);

    await writeFile(join(dir, 'broken.jsonl'), '{"id": 1, "claim": "x", "evidence": "x"}\n{not json');
    const io2 = capture(dir);
    assert.equal(await main(['verify', '--pairs', 'broken.jsonl'], io2), 2);
    assert.match(io2.err, /broken\.jsonl:2: not valid JSON/);
    assert.equal(io2.out, '');
  });

  it('refuses a missing file, a missing --pairs, a bad threshold and an unknown escalation with exit 2', async () => {
    for (const argv of [
      ['verify', '--pairs', 'nope.jsonl'],
      ['verify'],
      ['verify', '--pairs', 'pairs.jsonl', '--threshold', '2'],
      ['verify', '--pairs', 'pairs.jsonl', '--threshold', 'high'],
      ['verify', '--pairs', 'pairs.jsonl', '--escalation', 'oracle'],
      ['verify', '--pairs', 'pairs.jsonl', '--frobnicate'],
    ]) {
      const io = capture(dir);
      assert.equal(await main(argv, io), 2, argv.join(' '));
      assert.equal(io.out, '', argv.join(' '));
      assert.match(io.err, /^evident verify: /, argv.join(' '));
    }
  });

  it('has --help', async () => {
    const io = capture(dir);
    assert.equal(await verify(['--help'], io), 0);
    assert.match(io.out, /Usage: evident verify --pairs FILE\.jsonl/);
  });
});
