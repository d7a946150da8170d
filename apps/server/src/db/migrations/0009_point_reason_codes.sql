-- Point ledger reasons become codes (the contract's POINT_REASON_CODES); the Korean label is looked up
-- when the history is answered, so rewording a label no longer means rewriting rows. Existing rows are
-- converted from the labels they were written with; the CHECK then holds the column to the enum.
UPDATE "point_ledger" SET "reason" = CASE "reason"
  WHEN '결제 적립' THEN 'PURCHASE_EARN'
  WHEN '포인트 사용' THEN 'PURCHASE_USE'
  WHEN '출석 체크' THEN 'CHECKIN_ROULETTE'
  WHEN '숏폼 시청' THEN 'WATCH_REWARD'
  WHEN '결제 취소' THEN 'REFUND_USE_RETURN'
  WHEN '적립 취소' THEN 'REFUND_EARN_CANCEL'
  ELSE "reason"
END;--> statement-breakpoint
ALTER TABLE "point_ledger" ADD CONSTRAINT "point_ledger_reason_check" CHECK ("reason" IN ('PURCHASE_EARN', 'PURCHASE_USE', 'CHECKIN_ROULETTE', 'WATCH_REWARD', 'REFUND_USE_RETURN', 'REFUND_EARN_CANCEL'));
