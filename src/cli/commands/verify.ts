// `evident verify --pairs FILE.jsonl`: the verifier's verdict on claim/evidence pairs, as if
// the model had written `claim [E1]` and the ledger held the evidence as E1. The same code the
// product runs (src/core/verifier), with its default settings unless flags say otherwise.

import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { readJsonl } from '../../core/jsonl';
import { createClaimChecker, DEFAULT_ENTAILMENT_MODEL, DEFAULT_THRESHOLD, evidenceText } from '../../core/verifier';
import { CliError, type CliCommand } from '../io';
import { escalationFor } from '../setup';

const HELP = `Usage: evident verify --pairs FILE.jsonl [options]

Reads lines {"id","claim","evidence"} (evidence: a string, or a list of sentences joined with
spaces) and prints one line {"id","supported":bool,"score":number} per pair, in order.
Term weights (IDF) come from all the evidence in the file.

Options:
  --pairs FILE             the pairs (JSON Lines), required
  --threshold N            support threshold, 0..1 (default ${DEFAULT_THRESHOLD})
  --escalation KIND        second tier for the sentences the lexical check rejects:
                           entailment (local NLI model) or judge (the chat model)
  --entailment-model ID|DIR  model for --escalation entailment (default ${DEFAULT_ENTAILMENT_MODEL};
                           a folder is used offline, a hub id is downloaded once)
  --offline                never download a model
  --model NAME             chat model for --escalation judge: gemini or gemini:MODEL_ID
                           (needs GEMINI_API_KEY)
  -h, --help               show this help
`;

interface PairLine {
  id: string | number;
  claim: string;
  evidence: string | string[];
}

function checkPair(v: Record<string, unknown>): string | undefined {
  if (typeof v.id !== 'string' && typeof v.id !== 'number') return '"id" must be a string or a number';
  if (typeof v.claim !== 'string' || v.claim.trim() === '') return '"claim" must be a non-empty string';
  const e = v.evidence;
  if (typeof e === 'string') return undefined;
  if (Array.isArray(e) && e.every((x) => typeof x === 'string')) return undefined;
  return '"evidence" must be a string or an array of strings';
}

export const verify: CliCommand = async (argv, io) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      pairs: { type: 'string' },
      threshold: { type: 'string' },
      escalation: { type: 'string' },
      'entailment-model': { type: 'string' },
      offline: { type: 'boolean' },
      model: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(HELP);
    return 0;
  }
  if (!values.pairs) throw new CliError('--pairs FILE.jsonl is required.');
  let threshold: number | undefined;
  if (values.threshold !== undefined) {
    threshold = Number(values.threshold);
    if (values.threshold.trim() === '' || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
      throw new CliError(`--threshold must be a number from 0 to 1 (got "${values.threshold}").`);
    }
  }
  const escalation = await escalationFor(values.escalation, values, io);
  // Every line is read and checked before anything is printed: a bad line costs no output.
  const pairs = await readJsonl<PairLine>(path.resolve(io.cwd, values.pairs), checkPair);
  const texts = pairs.map((p) => evidenceText(p.evidence));
  const check = createClaimChecker(texts, { threshold, escalation });
  for (let i = 0; i < pairs.length; i++) {
    io.signal?.throwIfAborted();
    const verdict = await check(pairs[i].claim, texts[i]);
    io.stdout(
      `${JSON.stringify({ id: pairs[i].id, supported: verdict.supported, score: Math.round(verdict.score * 1e4) / 1e4 })}\n`,
    );
  }
  return 0;
};
