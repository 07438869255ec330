// `npm run bench:relevance`: the relevance check on a question set (eval/dev by default, both
// corpora), offline (extractive model), with lexical retrieval and with hybrid retrieval on the real
// all-MiniLM-L6-v2 (`npm run fetch-model`), in one run. Each question is answered once with the
// check off; the check is then applied to the kept sentences (with their headings and passages, as
// the agent loop gives them) with each candidate setting, and the issue-9 gates are computed
// (unanswerable abstained, answerable correct, false abstention). With the model, each part's
// closeness in meaning to the kept sentences is measured once (as the agent loop does) and the
// closeness threshold swept, for three forms of the figure (the best kept sentence: shipped; their
// mean; their text as one): "or" = a part is about the answer when its words are met or it is close
// (the shipped rule); "close" = closeness alone decides. --flips prints the turns a rule changes. The setting is chosen on dev only.
// The indexes are kept between runs (bench/benchIndexes.ts).
//   npx tsx bench/relevanceDev.ts [-- --modes lexical,hybrid] [-- --sets dev,generalisation-3] [-- --flips or:max:0.5]

import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { requireRealModel } from '../test/support/realModel';
import { benchEmbedding, benchIndexDir } from './benchIndexes';
import { Engine, folderDocSource } from '../src/core/engine';
import { readJsonl } from '../src/core/jsonl';
import { checkEvalQuestion, type EvalQuestion } from '../src/core/eval/evaluation';
import { checkRelevance, questionParts, type RelevanceInput } from '../src/core/verifier/relevance';
import { withoutCitations } from '../src/domain/citations';
import type { TurnResult } from '../src/domain/types';

const CORPORA = path.resolve(__dirname, '../../shared/data/corpora');
const SETS = ['18f-handbook', 'site-policy'];

interface Turn {
  q: EvalQuestion;
  r: TurnResult;
  input: RelevanceInput;
  /** Closeness of each part to the kept sentences: the best sentence (shipped), their mean, or their text as one. */
  forms?: Record<Form, Map<string, number>>;
}

type Form = 'max' | 'mean' | 'whole';

async function answerAll(mode: 'lexical' | 'hybrid', set: string): Promise<Turn[]> {
  const turns: Turn[] = [];
  for (const corpus of SETS) {
    const embedding = mode === 'hybrid' ? benchEmbedding(requireRealModel()) : false;
    const engine = await Engine.open({
      docs: folderDocSource(path.join(CORPORA, corpus)),
      indexDir: benchIndexDir(corpus, mode),
      embedding,
      relevanceCheck: false,
    });
    try {
      await engine.index();
      if (engine.status().retrieval !== mode) {
        throw new Error(`${corpus}: retrieval is ${engine.status().retrieval}, not ${mode}`);
      }
      const model = engine.createExtractiveModel();
      const questions = await readJsonl<EvalQuestion>(
        path.resolve(__dirname, `../eval/${set}/${corpus}.jsonl`),
        checkEvalQuestion,
      );
      for (const q of questions) {
        const r = await engine.ask(q.question, { model });
        const kept = r.sentences.filter((s) => s.verdict === 'kept');
        const of = (ids: string[], field: 'heading' | 'text') =>
          ids.map((id) => r.evidence.find((e) => e.id === id)?.[field] ?? '').join('\n');
        const input: RelevanceInput = {
          question: q.question,
          kept: kept.map((s) => ({
            text: s.text,
            heading: of(s.citations, 'heading'),
            passage: of(s.citations, 'text'),
          })),
          termStats: engine.termStats(),
        };
        const forms: Record<Form, Map<string, number>> = { max: new Map(), mean: new Map(), whole: new Map() };
        const similarity = engine.textSimilarity();
        if (similarity && kept.length) {
          const texts = kept.map((s) => withoutCitations(s.text));
          for (const part of questionParts(q.question)) {
            const scores = await similarity.similarity(part, [...texts, texts.join(' ')]);
            const each = scores.slice(0, texts.length);
            forms.max.set(part, Math.max(...each));
            forms.mean.set(part, each.reduce((a, b) => a + b, 0) / each.length);
            forms.whole.set(part, scores[texts.length]);
          }
        }
        turns.push({ q, r, input, ...(similarity && kept.length ? { forms } : {}) });
      }
    } finally {
      await engine.close();
    }
  }
  return turns;
}

type Rule = { kind: 'off' } | { kind: 'words' } | { kind: 'close' | 'or'; threshold: number; form: Form };

function abstains(t: Turn, rule: Rule): boolean {
  if (t.r.abstained || rule.kind === 'off') return t.r.abstained;
  const words = checkRelevance(t.input).verdict === 'off-topic';
  if (rule.kind === 'words' || !t.forms) return words;
  const closeness = t.forms[rule.form];
  const close = checkRelevance({ ...t.input, closeness, closeEnough: rule.threshold }).verdict === 'off-topic';
  // "or": off-topic only when both the words and the meaning say so (exact for a one-part question).
  return rule.kind === 'close' ? close : close && words;
}

function correct(t: Turn): boolean {
  const { q, r } = t;
  return q.answer_keywords.every((k) => r.answer.toLowerCase().includes(k.toLowerCase()));
}

function gates(turns: Turn[], rule: Rule): string {
  let unansAbstained = 0;
  let unans = 0;
  let ans = 0;
  let right = 0;
  let falseAbst = 0;
  for (const t of turns) {
    const abstained = abstains(t, rule);
    if (t.q.answerable) {
      ans++;
      if (abstained) falseAbst++;
      else if (correct(t)) right++;
    } else {
      unans++;
      if (abstained) unansAbstained++;
    }
  }
  const pct = (n: number, d: number) => `${((n / d) * 100).toFixed(1)}%`.padStart(6);
  return `${pct(unansAbstained, unans)} (${unansAbstained}/${unans}) | ${pct(right, ans)} (${right}/${ans}) | ${pct(falseAbst, ans)} (${falseAbst}/${ans})`;
}

function name(rule: Rule): string {
  return rule.kind === 'close' || rule.kind === 'or'
    ? `${rule.kind} ${rule.form} ≥ ${rule.threshold.toFixed(2)}`
    : rule.kind;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { modes: { type: 'string' }, sets: { type: 'string' }, flips: { type: 'string' } },
  });
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  for (const set of (values.sets ?? 'dev').split(',')) {
    for (const mode of (values.modes ?? 'lexical,hybrid').split(',') as ('lexical' | 'hybrid')[]) {
      const turns = await answerAll(mode, set);
      console.log(
        `\n${set}, ${mode} retrieval${mode === 'hybrid' ? ' (all-MiniLM-L6-v2)' : ''}: ${turns.length} questions (${turns.filter((t) => t.q.answerable).length} answerable)`,
      );
      console.log('relevance check | unanswerable abstained | answerable correct (keywords) | false abstention');
      const rules: Rule[] = [{ kind: 'off' }, { kind: 'words' }];
      if (mode === 'hybrid') {
        for (const form of ['max', 'mean', 'whole'] as const) {
          for (const threshold of [0.3, 0.4, 0.5, 0.6]) rules.push({ kind: 'or', threshold, form });
        }
        for (const threshold of [0.3, 0.4, 0.5]) rules.push({ kind: 'close', threshold, form: 'max' });
      }
      for (const rule of rules) console.log(`${name(rule).padEnd(15)} | ${gates(turns, rule)}`);
      if (values.flips && mode === 'hybrid') {
        const [kind, form, threshold] = values.flips.split(':');
        const rule = { kind: kind as 'or' | 'close', form: form as Form, threshold: Number(threshold) };
        for (const t of turns) {
          const before = abstains(t, { kind: 'words' });
          const after = abstains(t, rule);
          if (before !== after) {
            console.log(
              `  ${before ? 'now answered' : 'now abstained'} [${t.q.answerable ? (correct(t) ? 'answerable, right' : 'answerable, wrong') : 'unanswerable'}] ${t.q.id}: ${t.q.question} (closeness ${(['max', 'mean', 'whole'] as const).map((f) => `${f} ${[...(t.forms?.[f].values() ?? [])].map((c) => c.toFixed(2)).join(', ')}`).join('; ')})\n      → ${t.r.answer.replace(/\s+/g, ' ').slice(0, 200)}`,
            );
          }
        }
      }
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
