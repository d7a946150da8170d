-- The feed's freshness term in double precision. extract(epoch …) gives numeric, so the first version took
-- exp() of a numeric: about 3.5 times slower than exp() of a double, evaluated for every recent short by the
-- minute's ranking refresh and by each trigger that rescores a short. The formula is unchanged
-- (docs/rules/shorts.md#S1); 259200 s is 72 hours.
CREATE OR REPLACE FUNCTION short_rank_freshness(at timestamp with time zone, created timestamp with time zone)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
	SELECT CASE WHEN at - created > interval '60 days' THEN 0
		ELSE 5.0 * exp(-greatest(0, extract(epoch FROM (at - created))::double precision) / 259200.0) END
$$;
