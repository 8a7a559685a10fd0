// How the extraction bench scores a text against a page's hand-marked main text, defined once.
// Tokens: the text lower-cased (Unicode), split on every run of characters that are neither letters
// nor digits, so punctuation is stripped and "don't" is two tokens. Shingles: each run of 4
// consecutive tokens. Precision = share of the text's distinct shingles found among the main text's;
// recall = share of the main text's distinct shingles found among the text's, counting only shingles
// inside one block of main.txt (blocks are split at blank lines, a block under 4 tokens joins the
// next): pieces marked apart may stand apart on the page, and no extractor can send the shingle that
// joins them. F1 is their harmonic mean. A text of fewer than 4 tokens has no shingles and scores 0.

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

/** The main text's shingles that recall counts: those inside one block (blank-line separated). */
export function blockShingles(main, n = 4) {
  const out = new Set();
  let carry = [];
  for (const block of main.split(/\n\s*\n/)) {
    const toks = [...carry, ...tokens(block)];
    if (toks.length < n) {
      carry = toks;
      continue;
    }
    carry = [];
    for (const s of shingles(toks, n)) out.add(s);
  }
  for (const s of shingles(carry, n)) out.add(s);
  return out;
}

/** { precision, recall, f1 } of `text` against `main` (both plain text). */
export function score(text, main) {
  const got = shingles(tokens(text));
  const want = shingles(tokens(main));
  const wantInBlocks = blockShingles(main);
  let hit = 0;
  for (const s of got) if (want.has(s)) hit++;
  let found = 0;
  for (const s of wantInBlocks) if (got.has(s)) found++;
  const precision = got.size ? hit / got.size : 0;
  const recall = wantInBlocks.size ? found / wantInBlocks.size : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}
