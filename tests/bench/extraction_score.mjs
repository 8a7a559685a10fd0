// How the extraction bench scores a text against a page's hand-marked main text, defined once.
// Tokens: the text lower-cased (Unicode), split on every run of characters that are neither letters
// nor digits, so punctuation is stripped and "don't" is two tokens. Shingles: each run of 4
// consecutive tokens. Precision = share of the text's distinct shingles found among the main text's;
// recall = share of the main text's distinct shingles found among the text's. F1 is their harmonic
// mean. A text of fewer than 4 tokens has no shingles and scores 0.

/** Word tokens as scored: lower-cased, punctuation stripped. */
export function tokens(text) {
  return (text || "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** The distinct n-token shingles of a token list. */
export function shingles(toks, n = 4) {
  const out = new Set();
  for (let i = 0; i + n <= toks.length; i++) out.add(toks.slice(i, i + n).join(" "));
  return out;
}

/** { precision, recall, f1 } of `text` against `main` (both plain text). */
export function score(text, main) {
  const got = shingles(tokens(text));
  const want = shingles(tokens(main));
  let hit = 0;
  for (const s of got) if (want.has(s)) hit++;
  let found = 0;
  for (const s of want) if (got.has(s)) found++;
  const precision = got.size ? hit / got.size : 0;
  const recall = want.size ? found / want.size : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}
