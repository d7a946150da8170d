import styles from '../components/portal.module.css';

/** A menu place whose screen is not built yet: says so plainly, with nothing pretending to work. */
export function ComingSoon({ title, what }: { title: string; what: string }) {
  return (
    <section aria-labelledby="soon-title">
      <h2 id="soon-title">{title}</h2>
      <div className={styles.card}>
        <p>준비 중이에요. {what}을 곧 이곳에서 볼 수 있어요.</p>
      </div>
    </section>
  );
}
