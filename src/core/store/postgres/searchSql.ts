// The shared index's search as one SQL statement (one round trip per query):
// * lexical: the local index's BM25 (lexicalIndex.ts: one bag of terms per passage, heading and
//   file-name terms weighted, k1 and b, unique query terms, ties by id) over the term table, whose
//   terms and weights are the local index's own, so both stores rank alike. PostgreSQL's
//   ts_rank_cd has no inverse document frequency: "the" would weigh as much as "per diem".
// * dense: pgvector's cosine distance, served by the HNSW index;
// * fusion: weighted reciprocal rank fusion (weight / (k + rank)) of the two top-N lists, ties by
//   id, with the local retriever's weights.

interface Slots {
  terms: string;
  vector?: string;
  topK: string;
  candidates: string;
  rrfK: string;
  k1: string;
  b: string;
  lexicalWeight?: string;
  vectorWeight?: string;
}

function searchSql(s: Slots): string {
  const lexical = `
  q AS (SELECT DISTINCT term FROM unnest(${s.terms}::text[]) AS term),
  st AS (SELECT passages::float8 AS n, total_len / greatest(passages, 1) AS avg FROM evident_store),
  df AS (SELECT t.term, count(*)::float8 AS df FROM evident_terms t JOIN q ON q.term = t.term GROUP BY t.term),
  lexical AS (
    SELECT t.passage_id AS id,
           row_number() OVER (
             ORDER BY sum(ln(1 + (st.n - df.df + 0.5) / (df.df + 0.5)) * t.tf::float8 * (${s.k1}::float8 + 1)
                          / (t.tf::float8 + ${s.k1}::float8 * (1 - ${s.b}::float8 + ${s.b}::float8 * p.len::float8 / st.avg))) DESC,
                      t.passage_id COLLATE "C") AS r
    FROM evident_terms t
    JOIN df ON df.term = t.term
    JOIN evident_passages p ON p.id = t.passage_id
    CROSS JOIN st
    GROUP BY t.passage_id
    ORDER BY r
    LIMIT ${s.candidates})`;
  const dense = s.vector
    ? `,
  dense AS (
    SELECT id, row_number() OVER (ORDER BY dist, id COLLATE "C") AS r
    FROM (SELECT id, embedding <=> ${s.vector}::vector AS dist FROM evident_passages
          ORDER BY embedding <=> ${s.vector}::vector LIMIT ${s.candidates}) nearest
    WHERE dist IS NOT NULL)`
    : '';
  const ranks = s.vector
    ? `SELECT id, r, ${s.lexicalWeight}::float8 AS w FROM lexical UNION ALL SELECT id, r, ${s.vectorWeight}::float8 AS w FROM dense`
    : 'SELECT id, r, 1::float8 AS w FROM lexical';
  return `WITH ${lexical}${dense},
  fused AS (SELECT id, sum(w / (${s.rrfK}::float8 + r)) AS score FROM (${ranks}) ranked GROUP BY id)
SELECT p.id, p.source, p.heading_path, p.heading, p.start_line, p.end_line, p.text, p.version, f.score
FROM fused f JOIN evident_passages p ON p.id = f.id
ORDER BY f.score DESC, f.id COLLATE "C"
LIMIT ${s.topK}`;
}

/** Parameters: terms, vector, topK, candidates, rrfK, k1, b, lexical weight, vector weight. */
export const HYBRID_SEARCH_SQL = searchSql({
  terms: '$1', vector: '$2', topK: '$3', candidates: '$4', rrfK: '$5', k1: '$6', b: '$7', lexicalWeight: '$8', vectorWeight: '$9',
});

/** Parameters: terms, topK, candidates, rrfK, k1, b. */
export const LEXICAL_SEARCH_SQL = searchSql({ terms: '$1', topK: '$2', candidates: '$3', rrfK: '$4', k1: '$5', b: '$6' });
