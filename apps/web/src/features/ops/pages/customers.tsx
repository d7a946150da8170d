import type { StaffRole } from '@ohgood/contract/endpoint';
import { useState } from 'react';
import { useCustomerSearch } from '../api/queries';
import { Status } from '../components/console-ui';
import styles from '../components/ops-console.module.css';
import { CustomerDetail } from './customer-detail';

/**
 * Search by exact customer id, e-mail or account number, or part of a name (results masked; every search is
 * audited), then one customer's page.
 */
export function Customers({ staffRole }: { staffRole: StaffRole }) {
  const [q, setQ] = useState('');
  const [submitted, setSubmitted] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  const results = useCustomerSearch(submitted);
  return (
    <>
      <form
        className={`${styles.card} ${styles.row}`}
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(q.trim());
          setSelected(null);
        }}
      >
        <label className={styles.field}>
          고객 검색 (고객 번호, 이메일 전체, 계좌번호 전체, 이름 일부)
          <input
            className={styles.input}
            value={q}
            onChange={(e) => setQ(e.target.value)}
            maxLength={100}
            placeholder="예: 1024, hong@example.com, 110-123-456789, 오굿"
            aria-describedby="customer-search-hint"
          />
        </label>
        <button className={styles.button} type="submit">
          검색
        </button>
        <p id="customer-search-hint" className={`${styles.muted} ${styles.wideHint}`}>
          이메일과 계좌번호는 전체가 정확히 맞아야 찾을 수 있어요. 모든 검색은 감사 기록에 남아요.
        </p>
      </form>
      {submitted && (
        <section className={styles.card} aria-label="검색 결과">
          <Status read={results} />
          {results.data?.items.length === 0 && <p>검색 결과가 없습니다.</p>}
          {results.data && results.data.items.length > 0 && (
            <table className={styles.table}>
              <thead>
                <tr>
                  <th>번호</th>
                  <th>이름</th>
                  <th>이메일</th>
                  <th>계좌</th>
                  <th>등급</th>
                  <th>상태</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {results.data.items.map((c) => (
                  <tr key={c.customerId} className={selected === c.customerId ? styles.selectedRow : undefined}>
                    <td>#{c.customerId}</td>
                    <td>{c.name}</td>
                    <td>{c.email}</td>
                    <td>{c.account}</td>
                    <td>{c.gradeName}</td>
                    <td>{c.suspended ? '결제 정지' : '정상'}</td>
                    <td>
                      <button
                        type="button"
                        className={styles.linkButton}
                        aria-label={`고객 #${c.customerId} 열기`}
                        onClick={() => setSelected(c.customerId)}
                      >
                        열기
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
      {selected !== null && <CustomerDetail key={selected} customerId={selected} staffRole={staffRole} />}
    </>
  );
}
