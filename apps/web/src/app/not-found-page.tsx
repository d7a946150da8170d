import { Link } from 'react-router';
import buttons from '../shared/ui/button.module.css';
import { Page } from '../shared/ui/page';

export function NotFoundPage() {
  return (
    <Page title="페이지를 찾을 수 없어요">
      <p>주소를 다시 확인해 주세요.</p>
      <Link to="/" className={buttons.secondary}>
        홈으로 가기
      </Link>
    </Page>
  );
}
