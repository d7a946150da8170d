import type { PortalKey } from '@ohgood/contract/merchant-portal';
import { withParticle } from '@ohgood/contract/particles';
import { useState } from 'react';
import { confirmSheet } from '../../../shared/confirm';
import { notify } from '../../../shared/notify';
import { useApiKeys, useKeyActions } from '../api/queries';
import styles from '../components/portal.module.css';
import { failure, kstMinute, ReadState, ShownOnce } from '../components/portal-ui';

/** A key as a shop tells it apart: its last four characters (keys made before the portal have none shown). */
const keyLabel = (key: PortalKey) => (key.hint ? `ogm_…${key.hint}` : `키 #${key.keyId}`);

/**
 * The shop's API keys (`X-Merchant-Key`): issue one (shown once, here only), rotate one (a new key, the old one
 * stops at once), revoke one. The checkout and the shop's server keep working with any live key.
 */
export function ApiKeys() {
  const read = useApiKeys();
  const actions = useKeyActions();
  const [shown, setShown] = useState<string | null>(null);
  const keys = read.data?.items ?? [];
  const busy = actions.create.isPending || actions.rotate.isPending || actions.revoke.isPending;

  async function act<T>(run: () => Promise<T>, done: (result: T) => void) {
    try {
      done(await run());
    } catch (e) {
      notify(failure(e));
    }
  }

  const create = () =>
    act(
      () => actions.create.mutateAsync(),
      (created) => setShown(created.apiKey),
    );
  async function rotate(key: PortalKey) {
    const ok = await confirmSheet({
      title: `${withParticle(keyLabel(key), '을/를')} 교체할까요?`,
      message: '새 키가 발급되고 이 키는 즉시 사용할 수 없게 돼요.',
      confirmLabel: '교체',
      danger: true,
    });
    if (ok)
      await act(
        () => actions.rotate.mutateAsync(key.keyId),
        (rotated) => setShown(rotated.apiKey),
      );
  }
  async function revoke(key: PortalKey) {
    const ok = await confirmSheet({
      title: `${withParticle(keyLabel(key), '을/를')} 폐기할까요?`,
      message: '이 키로 보내는 요청은 즉시 거절돼요.',
      confirmLabel: '폐기',
      danger: true,
    });
    if (ok)
      await act(
        () => actions.revoke.mutateAsync(key.keyId),
        () => notify('키를 폐기했어요.'),
      );
  }

  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">API 키</h2>
      {shown && (
        <ShownOnce
          title="새 API 키"
          note="지금 한 번만 보여드려요. 안전한 곳에 보관해주세요."
          value={shown}
          testId="new-api-key"
          onDone={() => setShown(null)}
        />
      )}
      <div className={styles.card}>
        <div className={styles.row}>
          <p className={styles.muted}>결제 요청 API는 헤더 X-Merchant-Key에 키를 담아 호출해요.</p>
          <button type="button" className={styles.primary} onClick={() => void create()} disabled={busy}>
            새 키 발급
          </button>
        </div>
        <ReadState read={read} isEmpty={keys.length === 0} empty="발급된 키가 없어요. 새 키를 발급해주세요.">
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">키</th>
                <th scope="col">발급</th>
                <th scope="col">상태</th>
                <th scope="col">
                  <span className="visually-hidden">동작</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.keyId}>
                  <td data-label="키" className={styles.mono}>
                    {keyLabel(key)}
                  </td>
                  <td data-label="발급" className={styles.muted}>
                    {kstMinute(key.createdAt)}
                  </td>
                  <td>
                    {key.revokedAt ? (
                      <span className={`${styles.badge} ${styles.refunded}`}>폐기됨 {kstMinute(key.revokedAt)}</span>
                    ) : (
                      <span className={`${styles.badge} ${styles.paid}`}>사용 중</span>
                    )}
                  </td>
                  <td>
                    {!key.revokedAt && (
                      <div className={styles.row}>
                        <button
                          type="button"
                          className={styles.secondary}
                          disabled={busy}
                          onClick={() => void rotate(key)}
                          aria-label={`${keyLabel(key)} 교체`}
                        >
                          교체
                        </button>
                        <button
                          type="button"
                          className={styles.danger}
                          disabled={busy}
                          onClick={() => void revoke(key)}
                          aria-label={`${keyLabel(key)} 폐기`}
                        >
                          폐기
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ReadState>
      </div>
    </section>
  );
}
