// Dev-only: what the real embedding model can tell on WiCE dev's errors. Reads ONLY the dev split.
//
//   npx tsx bench/verifier/wiceDevMeaning.ts [--t=0.55] [--model=DIR] [--sentences] [--list]
//
// 1. The meaning rescue as the product runs it (`judgeSupport` with a TextSimilarity: a distinctive
//    word the passage lacks met by a passage word at least WORD_SIMILARITY close): dev BA with and
//    without it, and the claims it flips.
// 2. The same rescue at other word closeness bars: for each claim the lexical tier sinks with
//    missing words, the closest passage word of each (the rescue's own candidates), and how many
//    supported and unsupported claims each bar would keep.
// 3. (--sentences, slow) The claim's closeness to the best sentence, or pair of adjacent sentences,
//    of its chunks: how well it orders supported above unsupported claims (AUC), among the claims
//    the lexical tier keeps and among those it sinks.

import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { TextSimilarity } from '../../src/core/types';
import { createLexicalScorer, termStatsFromTexts } from '../../src/core/verifier';
import { claimVerdict } from '../../src/core/verifier/verifier';
import { WORD_SIMILARITY } from '../../src/core/verifier/semanticSupport';
import { analyse } from '../../src/core/text/terms';
import { loadEmbedder } from '../../src/core/retrieval/embedder';
import { embedderSimilarity } from '../../src/core/retrieval/textSimilarity';
import { balancedAccuracy, confusion, loadWice, type WiceClaim } from './wice';

const BARS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9];

const arg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/** Balanced accuracy (%) of the kept/sunk calls. */
function percent(claims: WiceClaim[], kept: boolean[]): string {
  return (
    balancedAccuracy(
      confusion(
        claims.map((c) => c.supported),
        kept,
      ),
    ) * 100
  ).toFixed(1);
}

/** Share of (supported, unsupported) pairs the score orders right (ties count half). */
function auc(rows: Array<{ supported: boolean; score: number }>): string {
  const pos = rows.filter((r) => r.supported);
  const neg = rows.filter((r) => !r.supported);
  if (!pos.length || !neg.length) return '—';
  let won = 0;
  for (const p of pos) for (const n of neg) won += p.score > n.score ? 1 : p.score === n.score ? 0.5 : 0;
  return `${(won / (pos.length * neg.length)).toFixed(3)} (${pos.length} supported, ${neg.length} unsupported)`;
}

/** The passage words the rescue compares a missing word with (as semanticSupport picks them). */
function candidatesOf(claim: string, chunk: string): string[] {
  const claimWords = new Set(analyse(claim, { stemming: false }).terms.map((t) => t.word));
  return [...new Set(analyse(chunk, { stemming: false }).terms.map((t) => t.word))]
    .filter((w) => !claimWords.has(w) && !/\d/.test(w))
    .slice(0, 48 * 4);
}

/** The lowest, over a chunk's missing words, of each word's closest candidate (the bar the rescue must clear). */
async function closestOfMissing(words: string[], candidates: string[], similarity: TextSimilarity): Promise<number> {
  if (words.length === 0 || words.length > 3 || candidates.length === 0) return -1;
  let lowest = 1;
  for (const w of words) lowest = Math.min(lowest, Math.max(...(await similarity.similarity(w, candidates))));
  return lowest;
}

const sentencesOf = (text: string): string[] => text.split(/(?<=[.!?])\s+(?=["“]?\p{Lu})/u).filter((s) => s.length > 3);

async function main(): Promise<void> {
  const t = Number(arg('t') ?? 0.55);
  const list = process.argv.includes('--list');
  const modelDir = arg('model') ?? path.join(homedir(), '.cache/evident/models/all-MiniLM-L6-v2');
  if (!existsSync(path.join(modelDir, 'onnx'))) throw new Error(`No embedding model at ${modelDir} (--model=DIR).`);
  const dev = await loadWice(path.join(__dirname, '../../../shared/data/verifier/wice/oracle_chunks/dev.jsonl'));
  const scorer = createLexicalScorer({ termStats: termStatsFromTexts(dev.flatMap((c) => c.chunks)) });
  const similarity = embedderSimilarity(
    await loadEmbedder({ modelId: modelDir, localModelPath: modelDir, allowRemote: false }),
  );

  const lexical: number[] = [];
  const rescued: number[] = [];
  const bar: number[] = [];
  for (const c of dev) {
    let plain = 0;
    let withMeaning = 0;
    let best = -1;
    for (const chunk of c.chunks) {
      plain = Math.max(plain, (await claimVerdict(c.claim, chunk, { scorer, threshold: t })).support);
      withMeaning = Math.max(
        withMeaning,
        (await claimVerdict(c.claim, chunk, { scorer, threshold: t, similarity })).support,
      );
      const r = await scorer.score(c.claim, chunk);
      if (r.missing && r.missing.scoreIfMet >= t) {
        best = Math.max(best, await closestOfMissing(r.missing.words, candidatesOf(c.claim, chunk), similarity));
      }
    }
    lexical.push(plain);
    rescued.push(withMeaning);
    bar.push(plain >= t ? -1 : best);
    if (list && plain >= t !== withMeaning >= t) {
      console.log(`flips ${c.supported ? 'supported' : 'unsupported'}: ${c.claim}`);
    }
    if (list && bar[bar.length - 1] >= 0) {
      console.log(
        `  closest ${bar[bar.length - 1].toFixed(2)} ${c.supported ? 'supported' : 'unsupported'}: ${c.claim}`,
      );
    }
  }
  const keptLexical = lexical.map((s) => s >= t);
  console.log(`WiCE dev, ${dev.length} claims, threshold ${t}, model ${similarity.modelId}`);
  console.log(
    `1. dev BA lexical ${percent(dev, keptLexical)}; with the meaning rescue (words ≥ ${WORD_SIMILARITY}) ${percent(
      dev,
      rescued.map((s) => s >= t),
    )}`,
  );
  console.log('2. the rescue at other bars: supported / unsupported claims it would keep, dev BA');
  for (const b of BARS) {
    const kept = dev.map((_, i) => keptLexical[i] || bar[i] >= b);
    const sup = dev.filter((c, i) => c.supported && !keptLexical[i] && kept[i]).length;
    const uns = dev.filter((c, i) => !c.supported && !keptLexical[i] && kept[i]).length;
    console.log(`   ${b.toFixed(2)}: ${sup} / ${uns}, ${percent(dev, kept)}`);
  }
  if (!process.argv.includes('--sentences')) return;
  const closeness: Array<{ supported: boolean; score: number; kept: boolean }> = [];
  for (const [i, c] of dev.entries()) {
    let score = -1;
    for (const chunk of c.chunks) {
      const s = sentencesOf(chunk);
      const pairs = s.map((x, j) => (j + 1 < s.length ? `${x} ${s[j + 1]}` : x));
      score = Math.max(score, ...(await similarity.similarity(c.claim, [...s, ...pairs])));
    }
    closeness.push({ supported: c.supported, score, kept: keptLexical[i] });
  }
  console.log('3. claim ↔ closest sentence (or pair) of its chunks, AUC');
  console.log(`   all claims: ${auc(closeness)}`);
  console.log(`   kept by the lexical tier: ${auc(closeness.filter((r) => r.kept))}`);
  console.log(`   sunk by the lexical tier: ${auc(closeness.filter((r) => !r.kept))}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
