// Benchmark: does retrieval find the passage that answers the question? On the dev set
// (eval/dev/*.jsonl over the shared corpora), for every answerable question, the rank of the
// first retrieved passage from a gold file: recall@6 (a gold passage among the six an answer is
// built from) and MRR@6, for Evident lexical, Evident hybrid with the real all-MiniLM-L6-v2 (q8,
// as users run it; `npm run fetch-model`), the dense ranking alone, and a reference BM25 written
// here (k1 1.2, b 0.75, Lucene's English stop words, heading + text of the same passages, no
// stemming) in the same run. --fusion adds the fusion weights and RRF constants tried (how the
// shipped ones were chosen, on this dev set). Then the median query time
// of Evident lexical, plain MiniSearch (its defaults, heading + text) and the reference on the
// same passages, at the corpus size and, with --scale N, at N passages (the corpora replicated,
// each copy with its own marker word).
//
// The "before" rows rebuild v0.1's lexical index (MiniSearch) on the same passages; --ablation
// adds rows that change one thing at a time, to show why v0.1 trailed and what each choice of
// the new index is worth.
//
// The hybrid row is run twice: vectors scanned exactly (the default below 10k passages) and
// through the usearch ANN graph forced on, so the graph's effect on recall shows in one run.
// The indexes are kept between runs (bench/benchIndexes.ts).
//
// Usage: npm run bench:retrieval [-- --ablation] [-- --fusion] [-- --misses] [-- --scale 50000] [-- --rounds N]

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import MiniSearch from 'minisearch';
import { folderDocSource } from '../src/core/engine';
import { checkEvalQuestion, type EvalQuestion } from '../src/core/eval/evaluation';
import { parseJsonl } from '../src/core/jsonl';
import { loadEmbedder } from '../src/core/retrieval/embedder';
import {
  CANDIDATES,
  FUSION_WEIGHTS,
  HybridRetriever,
  reciprocalRankFusion,
  RRF_K,
} from '../src/core/retrieval/hybridRetriever';
import { isRetrievalStopWord, LexicalIndex, type LexicalTuning } from '../src/core/retrieval/lexicalIndex';
import { stem } from '../src/core/text/terms';
import { PassageIndex } from '../src/core/store/local/passageIndex';
import { setAnnMinVectors } from '../src/core/retrieval/vectorStore';
import type { Passage } from '../src/domain/types';
import { requireRealModel } from '../test/support/realModel';
import { SHARED_DATA } from '../test/support/workspace';
import { benchIndexDir } from './benchIndexes';

const TOP_K = 6;
const CORPORA = ['site-policy', '18f-handbook'] as const;
const DEV = path.join(__dirname, '..', 'eval', 'dev');

// ---------------------------------------------------------------------------------------------
// The reference: textbook Okapi BM25 over heading + text, nothing else.

/** Lucene's classic English stop set. */
const REFERENCE_STOP_WORDS = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

function referenceTerms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !REFERENCE_STOP_WORDS.has(t));
}

class ReferenceBm25 {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[] = [];
  private readonly ids: string[] = [];
  private avgLength = 0;

  constructor(
    passages: { id: string; heading: string; text: string }[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    for (const p of passages) {
      const doc = this.ids.length;
      this.ids.push(p.id);
      const terms = referenceTerms(`${p.heading}\n${p.text}`);
      this.lengths.push(terms.length);
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push({ doc, tf: n });
      }
    }
    this.avgLength = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  search(query: string, limit: number): string[] {
    const n = this.ids.length;
    const scores = new Map<number, number>();
    for (const t of new Set(referenceTerms(query))) {
      const list = this.postings.get(t);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = tf + this.k1 * (1 - this.b + (this.b * this.lengths[doc]) / this.avgLength);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (this.k1 + 1)) / norm);
      }
    }
    return [...scores.entries()]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, limit)
      .map(([doc]) => this.ids[doc]);
  }
}

// ---------------------------------------------------------------------------------------------

interface SystemScore {
  hits: number;
  reciprocal: number;
  times: number[];
  misses: string[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** Rank (1-based) of the first passage whose source is a gold file, or 0. */
function goldRank(ids: string[], gold: Set<string>, passageOf: (id: string) => Passage | undefined): number {
  const i = ids.findIndex((id) => gold.has(passageOf(id)?.source ?? ''));
  return i < 0 ? 0 : i + 1;
}

// ---------------------------------------------------------------------------------------------
// Evident's lexical index before this change (v0.1, commit 6374e6f): MiniSearch over text, heading
// and source path, Porter stems, no stop words, OR of all query terms. Kept here to measure the
// change in the same run, and taken apart by --ablation to show why it trailed.

const V01_TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

function v01MiniSearch(
  passages: Passage[],
  variant: { source?: boolean; stopWords?: boolean; bm25Delta?: number } = {},
) {
  const { source = true, stopWords = false, bm25Delta = 0.5 } = variant;
  const fields = source ? ['text', 'heading', 'source'] : ['text', 'heading'];
  const search = new MiniSearch<{ id: string; text: string; heading: string; source: string }>({
    fields,
    storeFields: [],
    tokenize: (text: string) => text.match(V01_TOKEN) ?? [],
    processTerm: (term: string) => {
      const lower = term.toLowerCase();
      if (!lower.length || (stopWords && isRetrievalStopWord(lower))) return null;
      return stem(lower);
    },
    searchOptions: {
      boost: { heading: 2, source: 0.5 },
      prefix: false,
      fuzzy: false,
      bm25: { k: 1.2, b: 0.7, d: bm25Delta },
    },
  });
  search.addAll(passages.map((p) => ({ id: p.id, text: p.text, heading: p.heading, source: p.source })));
  return (q: string, limit: number) =>
    search
      .search(q, { combineWith: 'OR' })
      .slice(0, limit)
      .map((r) => String(r.id));
}

type Ranker = (q: string, limit: number) => string[] | Promise<string[]>;

async function main() {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string' },
      misses: { type: 'boolean' },
      rounds: { type: 'string' },
      ablation: { type: 'boolean' },
      fusion: { type: 'boolean' },
    },
  });
  const rounds = Number(values.rounds ?? 3);
  const modelDir = requireRealModel();
  const embedder = await loadEmbedder({ modelId: modelDir, allowRemote: false });
  console.log(
    `Embedding model: ${modelDir} (q8, as shipped); fusion: lexical ${FUSION_WEIGHTS.lexical}, vector ${FUSION_WEIGHTS.vector}, k ${RRF_K}, ${CANDIDATES} deep`,
  );

  console.log(`Dev set: ${DEV}; corpora: ${path.join(SHARED_DATA, 'corpora')}`);
  console.log(
    `Machine: ${process.platform} ${process.arch}, Node ${process.version}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
  );

  const total = new Map<string, SystemScore>();
  let questions = 0;
  const allPassages: Passage[] = [];

  for (const corpus of CORPORA) {
    const docs = path.join(SHARED_DATA, 'corpora', corpus);
    const file = path.join(DEV, `${corpus}.jsonl`);
    const set = parseJsonl<EvalQuestion>(readFileSync(file, 'utf8'), file, checkEvalQuestion).filter(
      (q) => q.answerable,
    );
    const indexDir = benchIndexDir(corpus, 'hybrid');
    {
      const index = await PassageIndex.open(indexDir, docs);
      await index.update(folderDocSource(docs), { embedder });
      // The ANN graph, built by a second run (nothing re-embedded), used only by the "forced" row:
      // below its threshold the index searches its vectors exactly, as before the graph.
      setAnnMinVectors(0);
      await index.update(folderDocSource(docs), { embedder });
      setAnnMinVectors(undefined);
      const passages = index.allPassages();
      allPassages.push(...passages);
      const reference = new ReferenceBm25(passages);
      const lexical = new HybridRetriever(index, undefined);
      const hybrid = new HybridRetriever(index, embedder);
      if (hybrid.mode !== 'hybrid') throw new Error('the hybrid retriever did not get its vectors');
      const before = v01MiniSearch(passages);
      const vectors = new Map<string, Float32Array>();
      const dense = async (q: string, limit = CANDIDATES) => {
        let vector = vectors.get(q);
        if (!vector) vectors.set(q, (vector = (await embedder.embed([q]))[0]));
        return (await index.vectorQuery(vector, limit)).map((h) => h.id);
      };
      const fused =
        (weight: number, k: number, depth = CANDIDATES): Ranker =>
        async (q, top) =>
          reciprocalRankFusion([index.lexicalQuery(q, depth).map((h) => h.id), await dense(q, depth)], k, [1, weight])
            .slice(0, top)
            .map((h) => h.id);
      const systems: [string, Ranker][] = [
        ['Evident lexical, before (v0.1: MiniSearch)', (q, k) => before(q, k)],
        ['Evident lexical', async (q, k) => (await lexical.search(q, k)).map((r) => r.passage.id)],
        ['Evident hybrid (all-MiniLM-L6-v2)', async (q, k) => (await hybrid.search(q, k)).map((r) => r.passage.id)],
        ['dense only (all-MiniLM-L6-v2)', async (q, k) => (await dense(q)).slice(0, k)],
        [
          'Evident hybrid, ANN graph forced on (usearch)',
          async (q, k) => {
            setAnnMinVectors(0);
            try {
              return (await hybrid.search(q, k)).map((r) => r.passage.id);
            } finally {
              setAnnMinVectors(undefined);
            }
          },
        ],
        ['reference BM25', (q, k) => reference.search(q, k)],
      ];
      if (values.fusion) {
        for (const k of [60, 20]) {
          for (const weight of [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2]) {
            systems.push([`  fusion: vector weight ${weight}, k ${k}`, fused(weight, k)]);
          }
        }
        systems.push(['  fusion: vector weight 1, k 60, 50 deep', fused(1, 60, 50)]);
      }
      if (values.ablation) {
        const tuned = (tuning: Partial<LexicalTuning>): Ranker => {
          const i = LexicalIndex.empty(tuning);
          i.add(passages);
          return (q, k) => i.query(q, k).map((h) => h.id);
        };
        systems.push(
          ['  ablation: v0.1 without the source field', v01MiniSearch(passages, { source: false })],
          ['  ablation: v0.1 with stop words', v01MiniSearch(passages, { stopWords: true })],
          ['  ablation: v0.1 with stop words, no source', v01MiniSearch(passages, { stopWords: true, source: false })],
          [
            '  ablation: v0.1 with stop words, no source, BM25 (no + delta)',
            v01MiniSearch(passages, { stopWords: true, source: false, bm25Delta: 0 }),
          ],
          ['  ablation: Evident without stop words', tuned({ stopWords: false })],
          ['  ablation: Evident without stemming', tuned({ stemming: false })],
          ['  ablation: Evident, heading weight 1', tuned({ headingWeight: 1 })],
          ['  ablation: Evident, heading weight 3', tuned({ headingWeight: 3 })],
          ['  ablation: Evident, no heading', tuned({ headingWeight: 0 })],
          ['  ablation: Evident, no file name', tuned({ sourceWeight: 0 })],
          ['  ablation: Evident, file name weight 1', tuned({ sourceWeight: 1 })],
        );
      }
      const local = new Map<string, SystemScore>(
        systems.map(([name]) => [name, { hits: 0, reciprocal: 0, times: [], misses: [] }]),
      );
      for (const q of set) {
        const gold = new Set(q.gold_files);
        for (const [name, rank] of systems) {
          const score = local.get(name)!;
          let ids: string[] = [];
          for (let r = 0; r < rounds; r++) {
            const t = performance.now();
            ids = await rank(q.question, TOP_K);
            score.times.push(performance.now() - t);
          }
          const at = goldRank(ids, gold, (id) => index.passage(id));
          if (at) {
            score.hits++;
            score.reciprocal += 1 / at;
          } else {
            score.misses.push(
              `${q.id}: ${q.question} → ${[...new Set(ids.map((id) => index.passage(id)?.source))].join(', ')}`,
            );
          }
        }
      }
      questions += set.length;
      console.log(`### ${corpus}: ${passages.length} passages, ${set.length} answerable questions\n`);
      printTable(local, set.length);
      for (const [name, l] of local) {
        const t = total.get(name) ?? { hits: 0, reciprocal: 0, times: [], misses: [] };
        t.hits += l.hits;
        t.reciprocal += l.reciprocal;
        t.times.push(...l.times);
        t.misses.push(...l.misses);
        total.set(name, t);
      }
    }
  }
  console.log(`### both corpora: ${questions} answerable questions\n`);
  printTable(total, questions);
  if (values.misses) {
    for (const [name, s] of total) {
      if (name.startsWith(' ')) continue;
      console.log(`Misses of ${name}:`);
      for (const m of s.misses) console.log(`- ${m}`);
      console.log('');
    }
  }

  const questionsText = CORPORA.flatMap((c) =>
    parseJsonl<EvalQuestion>(readFileSync(path.join(DEV, `${c}.jsonl`), 'utf8'), c, checkEvalQuestion).map(
      (q) => q.question,
    ),
  );
  await latency(allPassages, questionsText, rounds);
  if (values.scale) await latency(replicate(allPassages, Number(values.scale)), questionsText, 1);
}

function printTable(scores: Map<string, SystemScore>, n: number) {
  console.log(`| system | gold-file recall@${TOP_K} | MRR@${TOP_K} | median query |`);
  console.log('|---|---|---|---|');
  for (const [system, s] of scores) {
    console.log(
      `| ${system} | ${pct(s.hits / n)} (${s.hits}/${n}) | ${(s.reciprocal / n).toFixed(3)} | ${median(s.times).toFixed(2)} ms |`,
    );
  }
  console.log('');
}

/** Copies of the passages until there are `size`, each copy with a marker word of its own. */
function replicate(passages: Passage[], size: number): Passage[] {
  const out: Passage[] = [];
  for (let copy = 0; out.length < size; copy++) {
    for (const p of passages) {
      if (out.length >= size) break;
      out.push(copy === 0 ? p : { ...p, id: `${p.id}~${copy}`, text: `${p.text} copy${copy}` });
    }
  }
  return out;
}

/** Median lexical query time on the same passages: Evident's index, plain MiniSearch, the reference. */
async function latency(passages: Passage[], questions: string[], rounds: number) {
  let t = performance.now();
  const evident = LexicalIndex.empty();
  evident.add(passages);
  const evidentBuild = performance.now() - t;
  t = performance.now();
  const plain = new MiniSearch<{ id: string; heading: string; text: string }>({ fields: ['heading', 'text'] });
  plain.addAll(passages.map((p) => ({ id: p.id, heading: p.heading, text: p.text })));
  const plainBuild = performance.now() - t;
  t = performance.now();
  const reference = new ReferenceBm25(passages);
  const referenceBuild = performance.now() - t;
  const time = (fn: (q: string) => unknown) => {
    const times: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const q of questions) {
        const s = performance.now();
        fn(q);
        times.push(performance.now() - s);
      }
    }
    return times;
  };
  // Warm up each once, then measure interleaved rounds.
  for (const q of questions.slice(0, 10)) {
    evident.query(q, 30);
    plain.search(q);
    reference.search(q, 30);
  }
  const e = time((q) => evident.query(q, 30));
  const p = time((q) => plain.search(q).slice(0, 30));
  const r = time((q) => reference.search(q, 30));
  const bytes = evident.serialize();
  const size = bytes.byteLength;
  t = performance.now();
  LexicalIndex.load(bytes);
  const load = performance.now() - t;
  console.log(
    `### lexical query time at ${passages.length} passages (${questions.length} dev questions × ${rounds}, top 30)\n`,
  );
  console.log('| index | build | median query | p95 query | ratio to plain MiniSearch (median) |');
  console.log('|---|---|---|---|---|');
  const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(0.95 * (xs.length - 1))];
  const row = (name: string, build: number, xs: number[]) =>
    console.log(
      `| ${name} | ${(build / 1000).toFixed(2)} s | ${median(xs).toFixed(2)} ms | ${p95(xs).toFixed(2)} ms | ${(median(xs) / median(p)).toFixed(2)}× |`,
    );
  row(`Evident lexical (saved: ${(size / 1e6).toFixed(1)} MB, loads in ${load.toFixed(0)} ms)`, evidentBuild, e);
  row('plain MiniSearch (heading + text, defaults)', plainBuild, p);
  row('reference BM25 (Map postings)', referenceBuild, r);
  console.log('');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
