-- The payment's read and write are TypeScript again (modules/payments/final-read.ts, payment-write.ts,
-- validate-read.ts; ADR 0112), built from the same fragments every other money path uses; the SQL copies of
-- those mechanics go. Dropped by name, whatever their arguments: a database that applied an intermediate
-- version of migration 0012 or 0013 holds them with other signatures.
DO $$
DECLARE
	f regprocedure;
BEGIN
	FOR f IN
		SELECT p.oid::regprocedure FROM pg_proc p
		WHERE p.pronamespace = current_schema()::regnamespace
			AND p.proname IN ('payment_final_apply', 'payment_final_read_batch', 'payment_final_apply_batch',
				'payment_validate_read_batch')
	LOOP
		EXECUTE 'DROP FUNCTION ' || f;
	END LOOP;
END $$;
