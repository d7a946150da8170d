-- Nicknames are shown to everyone beside shorts and comments: one may not pass for another. Existing names
-- lose invisible and bidi-control characters (the same set as the contract's hasDeceptiveChars) and are
-- composed (NFC); a name left empty becomes '사용자' and the id.
UPDATE customers
SET nickname = coalesce(
  nullif(btrim(regexp_replace(normalize(nickname, NFC), '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0]', '', 'g')), ''),
  '사용자' || id
)
WHERE nickname ~ '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0]'
   OR nickname IS NOT NFC NORMALIZED;
--> statement-breakpoint
-- Names that are the same but for letter case or width (e.g. demo data seeded twice, or 'ＡＢ' and 'ab'): the
-- oldest account keeps it, the others get their id appended (still at most 20 characters).
WITH ranked AS (
  SELECT id, row_number() OVER (PARTITION BY lower(normalize(nickname, NFKC)) ORDER BY id) AS n
  FROM customers
)
UPDATE customers c
SET nickname = left(c.nickname, 19 - length(c.id::text)) || '#' || c.id
FROM ranked r
WHERE r.id = c.id AND r.n > 1;
--> statement-breakpoint
CREATE UNIQUE INDEX customers_nickname_key ON customers (lower(normalize(nickname, NFKC)));
