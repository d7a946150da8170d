import { CalendarCheck, ChartNoAxesColumn, Coins, MessageCircleMore, QrCode, ReceiptText, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Mascot } from '../../shared/ui/mascot';
import styles from './home-page.module.css';

interface QuickLink {
  label: string;
  icon: ReactNode;
  to?: string;
  onClick?: () => void;
}

export interface HomePageProps {
  /** This month's BNPL card, shown only when logged in (composed by the app). */
  summary?: ReactNode;
  /** Opens the attendance roulette. */
  onAttendance: () => void;
}

export function HomePage({ summary, onAttendance }: HomePageProps) {
  const links: QuickLink[] = [
    { label: '출석체크', icon: <CalendarCheck size={24} aria-hidden />, onClick: onAttendance },
    { label: '납부하기', icon: <Wallet size={24} aria-hidden />, to: '/payment' },
    { label: '결제내역', icon: <ReceiptText size={24} aria-hidden />, to: '/payment/details' },
    { label: '리포트', icon: <ChartNoAxesColumn size={24} aria-hidden />, to: '/dashboard' },
    { label: '포인트내역', icon: <Coins size={24} aria-hidden />, to: '/point/history' },
  ];

  return (
    <div className={styles.home}>
      <h1 className="visually-hidden">오굿페이 홈</h1>
      <Link to="/qrpin" className={styles.qrBox}>
        <div>
          <p className={styles.eyebrow}>매장에서 바로</p>
          <p className={styles.qrTitle}>QR 스캔 · 코드 입력</p>
          <p className={styles.qrSub}>결제는 지금, 납부는 다음 달 15일에</p>
        </div>
        <span className={styles.qrIcon}>
          <QrCode size={40} aria-hidden />
        </span>
      </Link>

      {/* Always there, so the prerendered (anonymous) Home has the place a signed-in one fills. */}
      <div className={styles.summary}>{summary}</div>

      <section className={styles.chatBox} aria-labelledby="chat-box-title">
        <Mascot size={52} />
        <div className={styles.chatText}>
          <h2 id="chat-box-title">오굿이에게 물어보세요</h2>
          <p>기분에 맞는 상품 추천부터 납부 질문까지!</p>
        </div>
        <Link to="/chat" className={styles.chatButton}>
          <MessageCircleMore size={18} aria-hidden />
          채팅하기
        </Link>
      </section>

      <nav aria-label="바로가기" className={styles.quick}>
        <ul>
          {links.map((link) => (
            <li key={link.label}>
              {link.onClick ? (
                <button type="button" className={styles.quickItem} onClick={link.onClick}>
                  <span className={styles.quickIcon}>{link.icon}</span>
                  {link.label}
                </button>
              ) : (
                <Link to={link.to ?? '/'} className={styles.quickItem}>
                  <span className={styles.quickIcon}>{link.icon}</span>
                  {link.label}
                </Link>
              )}
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
