import type { OpsCustomerPage } from '@ohgood/contract/ops';
import { opsEndpoints as api } from '@ohgood/contract/ops';
import { useState } from 'react';
import { won } from '../../../shared/format';
import { opsChanges } from '../api/keys';
import { useConsoleAction } from '../api/queries';
import { callOps } from '../api/staff-api';
import { ActionButton } from './action-dialog';
import styles from './ops-console.module.css';

/**
 * Risk's limit change (docs/rules/operations.md#O8): a new monthly limit within the grade's bounds, checked here
 * for a clear message before the server checks it again.
 */
export function LimitAction({ customerId, customer }: { customerId: number; customer: OpsCustomerPage['customer'] }) {
  const changeLimit = useConsoleAction(
    (body: { limit: number; reason: string }) => callOps(api.changeLimit, { params: { id: customerId }, body }),
    () => opsChanges.customer(customerId),
  );
  const { min, max, step } = customer.limitBounds;
  const [value, setValue] = useState(String(customer.limit));
  const limit = Number(value);
  return (
    <ActionButton
      label="한도 변경"
      fields={
        <label className={styles.field}>
          새 월 한도 (원, {won(min)}~{won(max)}, {won(step)} 단위)
          <input
            className={styles.input}
            inputMode="numeric"
            value={value}
            onChange={(e) => setValue(e.target.value.replace(/\D/g, ''))}
          />
        </label>
      }
      check={() =>
        Number.isInteger(limit) && limit >= min && limit <= max && limit % step === 0
          ? null
          : `한도는 ${won(min)}~${won(max)} 안에서 ${won(step)} 단위로 입력해주세요.`
      }
      summary={`월 한도 ${won(customer.limit)} → ${won(limit)}`}
      run={(reason) => changeLimit({ limit, reason })}
    />
  );
}
