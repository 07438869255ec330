// The shared index's search as one SQL statement (one round trip per query):
// * lexical: BM25 (MiniSearch's BM25+ with its k, b, d, the same field boosts and the same
//   "matched query terms" factor) computed over the term table, whose terms are the local
//   index's own (lower-cased, stemmed), so both stores rank alike. PostgreSQL's ts_rank_cd
//   has no inverse document frequency: "the" would weigh as much as "per diem".
// * dense: pgvector's cosine distance, served by the HNSW index;
// * fusion: reciprocal rank fusion (1 / (k + rank)) of the two top-N lists, ties by id.

interface Slots {
  terms: string;
  vector?: string;
  topK: string;
  candidates: string;
  rrfK: string;
  k1: string;
  b: string;
  d: string;
  boostText: string;
  boostHeading: string;
  boostSource: string;
}

function searchSql(s: Slots): string {
  const lexical = `
  q AS (SELECT term, count(*)::float8 AS qn FROM unnest(${s.terms}::text[]) AS term GROUP BY term),
  st AS (SELECT passages::float8 AS n,
                len_text::float8 / greatest(passages, 1) AS a0,
                len_heading::float8 / greatest(passages, 1) AS a1,
                len_source::float8 / greatest(passages, 1) AS a2
         FROM evident_store),
  df AS (SELECT t.term, t.field, count(*)::float8 AS df
         FROM evident_terms t JOIN q ON q.term = t.term GROUP BY t.term, t.field),
  hits AS (
    SELECT t.passage_id AS id, t.term,
           q.qn * (CASE t.field WHEN 0 THEN ${s.boostText}::float8 WHEN 1 THEN ${s.boostHeading}::float8 ELSE ${s.boostSource}::float8 END)
             * ln(1 + (st.n - df.df + 0.5) / (df.df + 0.5))
             * (${s.d}::float8 + t.tf * (${s.k1}::float8 + 1)
                / (t.tf + ${s.k1}::float8 * (1 - ${s.b}::float8 + ${s.b}::float8
                   * (CASE t.field WHEN 0 THEN p.len_text WHEN 1 THEN p.len_heading ELSE p.len_source END)
                   / nullif(CASE t.field WHEN 0 THEN st.a0 WHEN 1 THEN st.a1 ELSE st.a2 END, 0)))) AS s
    FROM evident_terms t
    JOIN q ON q.term = t.term
    JOIN df ON df.term = t.term AND df.field = t.field
    JOIN evident_passages p ON p.id = t.passage_id
    CROSS JOIN st),
  lexical AS (
    SELECT id, row_number() OVER (ORDER BY sum(s) * count(DISTINCT term) DESC, id COLLATE "C") AS r
    FROM hits GROUP BY id ORDER BY r LIMIT ${s.candidates})`;
  const dense = s.vector
    ? `,
  dense AS (
    SELECT id, row_number() OVER (ORDER BY dist, id COLLATE "C") AS r
    FROM (SELECT id, embedding <=> ${s.vector}::vector AS dist FROM evident_passages
          ORDER BY embedding <=> ${s.vector}::vector LIMIT ${s.candidates}) nearest
    WHERE dist IS NOT NULL)`
    : '';
  const ranks = s.vector ? 'SELECT id, r FROM lexical UNION ALL SELECT id, r FROM dense' : 'SELECT id, r FROM lexical';
  return `WITH ${lexical}${dense},
  fused AS (SELECT id, sum(1::float8 / (${s.rrfK}::float8 + r)) AS score FROM (${ranks}) ranked GROUP BY id)
SELECT p.id, p.source, p.heading_path, p.heading, p.start_line, p.end_line, p.text, p.version, f.score
FROM fused f JOIN evident_passages p ON p.id = f.id
ORDER BY f.score DESC, f.id COLLATE "C"
LIMIT ${s.topK}`;
}

/** Parameters: terms, vector, topK, candidates, rrfK, k1, b, d, boosts (text, heading, source). */
export const HYBRID_SEARCH_SQL = searchSql({
  terms: '$1', vector: '$2', topK: '$3', candidates: '$4', rrfK: '$5', k1: '$6', b: '$7', d: '$8', boostText: '$9', boostHeading: '$10', boostSource: '$11',
});

/** Parameters: terms, topK, candidates, rrfK, k1, b, d, boosts (text, heading, source). */
export const LEXICAL_SEARCH_SQL = searchSql({
  terms: '$1', topK: '$2', candidates: '$3', rrfK: '$4', k1: '$5', b: '$6', d: '$7', boostText: '$8', boostHeading: '$9', boostSource: '$10',
});
