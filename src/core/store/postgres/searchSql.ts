// The shared index's search as one SQL statement (one round trip per query):
// * lexical: the local index's BM25 (lexicalIndex.ts: one bag of terms per passage, heading and
//   file-name terms weighted, k1 and b, unique query terms, every posting of each, ties by id) over
//   the term table, whose terms, weights and lengths are the local index's own, with document
//   frequencies kept at index time (evident_term_df), so both stores rank alike. PostgreSQL's
//   ts_rank_cd has no inverse document frequency: "the" would weigh as much as "per diem".
// * dense: pgvector's cosine distance, served by the HNSW index;
// * fusion: weighted reciprocal rank fusion (weight / (k + rank)) of the two top-N lists, ties by
//   id, with the local retriever's weights; each list's first passage is kept in the top K as the
//   local retriever keeps it (hybridRetriever.ts keepEachBest: the last places of the others).
// * term statistics: each row also carries the verifier's document frequencies of the stems of the
//   query and of the returned passages (from the table kept at index time), and the passage count
//   they are over, so the client weighs the evidence's terms without a second round trip.

interface Slots {
  terms: string;
  stems: string;
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
  // Each query term's count and postings are read by lateral lookups on their keys (term first,
  // covering tf and length): only the query's terms, never a scan of the term table, whatever the
  // planner's statistics say (OFFSET 0 keeps the lookup from being flattened into a join the
  // planner may hash over the whole table). A term in no passage (no df row) adds nothing, as in
  // the local index. The store's counts are one row, read once.
  const lexical = `
  q AS (SELECT DISTINCT term FROM unnest(${s.terms}::text[]) AS term),
  st AS MATERIALIZED (SELECT passages::float8 AS n, total_len / greatest(passages, 1) AS avg FROM evident_store LIMIT 1),
  idf AS MATERIALIZED (
    SELECT q.term, ln(1 + ((SELECT n FROM st) - d.df + 0.5) / (d.df + 0.5)) AS idf
    FROM q CROSS JOIN LATERAL (SELECT c.df FROM evident_term_df c WHERE c.term = q.term AND c.df > 0 OFFSET 0) d),
  scored AS (
    SELECT t.passage_id AS id,
           sum(idf.idf * t.tf::float8 * (${s.k1}::float8 + 1)
               / (t.tf::float8 + ${s.k1}::float8 * (1 - ${s.b}::float8 + ${s.b}::float8 * t.len::float8 / (SELECT avg FROM st)))) AS score
    FROM idf
    CROSS JOIN LATERAL (SELECT e.passage_id, e.tf, e.len FROM evident_terms e WHERE e.term = idf.term OFFSET 0) t
    GROUP BY t.passage_id),
  lexical AS (
    SELECT id, row_number() OVER (ORDER BY score DESC, id COLLATE "C") AS r
    FROM (SELECT id, score FROM scored ORDER BY score DESC, id COLLATE "C" LIMIT ${s.candidates}) best)`;
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
  ranked AS (${ranks}),
  fused AS (SELECT id, sum(w / (${s.rrfK}::float8 + r)) AS score FROM ranked GROUP BY id),
  ordered AS (
    SELECT f.id, f.score, b.id IS NOT NULL AS first,
           row_number() OVER (ORDER BY f.score DESC, f.id COLLATE "C") AS n
    FROM fused f LEFT JOIN (SELECT DISTINCT id FROM ranked WHERE r = 1) b ON b.id = f.id),
  lifted AS (SELECT id, score FROM ordered WHERE first AND n > ${s.topK}),
  top AS (
    SELECT id, score FROM lifted
    UNION ALL
    SELECT id, score FROM (
      SELECT id, score, row_number() OVER (ORDER BY n) AS m FROM ordered WHERE NOT (first AND n > ${s.topK})) rest
    WHERE m <= ${s.topK} - (SELECT count(*) FROM lifted)),
  counted AS (
    SELECT json_object_agg(c.stem, c.df) AS dfs FROM evident_stems c
    WHERE c.stem IN (SELECT unnest(tp.stems) FROM top JOIN evident_passages tp ON tp.id = top.id
                     UNION SELECT unnest(${s.stems}::text[])))
SELECT p.id, p.source, p.heading_path, p.heading, p.start_line, p.end_line, p.text, p.version, t.score,
       p.stems, st.passages AS n, st.updated_at AS at, counted.dfs
FROM top t JOIN evident_passages p ON p.id = t.id CROSS JOIN evident_store st CROSS JOIN counted
ORDER BY t.score DESC, t.id COLLATE "C"`;
}

/** The verifier's counts of the given stems (parameter 1), with the passage count they are over. */
export const STEM_COUNTS_SQL = `SELECT st.passages AS n, st.updated_at AS at,
  (SELECT json_object_agg(c.stem, c.df) FROM evident_stems c WHERE c.stem = ANY($1::text[])) AS dfs
FROM evident_store st`;

/** Parameters: terms, vector, topK, candidates, rrfK, k1, b, lexical weight, vector weight, the query's stems. */
export const HYBRID_SEARCH_SQL = searchSql({
  terms: '$1',
  vector: '$2',
  topK: '$3',
  candidates: '$4',
  rrfK: '$5',
  k1: '$6',
  b: '$7',
  lexicalWeight: '$8',
  vectorWeight: '$9',
  stems: '$10',
});

/** Parameters: terms, topK, candidates, rrfK, k1, b, the query's stems. */
export const LEXICAL_SEARCH_SQL = searchSql({
  terms: '$1',
  topK: '$2',
  candidates: '$3',
  rrfK: '$4',
  k1: '$5',
  b: '$6',
  stems: '$7',
});
