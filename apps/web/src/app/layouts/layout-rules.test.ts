import { describe, expect, it } from 'vitest';
import { hasInAppHistory } from '../../shared/navigation';
import { isFooterDark, isFooterHidden } from './footer';
import { searchPath } from './shorts-layout';

describe('footer rules', () => {
  it.each(['/qrpin', '/register', '/shorts/upload'])('is hidden on %s', (path) => {
    expect(isFooterHidden(path)).toBe(true);
  });
  it.each(['/', '/mypage', '/shorts/feeds', '/login'])('is shown on %s', (path) => {
    expect(isFooterHidden(path)).toBe(false);
  });
  it('is dark on any path containing shorts', () => {
    expect(isFooterDark('/shorts/feeds')).toBe(true);
    expect(isFooterDark('/shorts/mypage/all')).toBe(true);
    expect(isFooterDark('/mypage')).toBe(false);
  });
});

describe('shorts search path', () => {
  it('trims and encodes the query; empty goes without q', () => {
    expect(searchPath('  라떼 아트 ')).toBe('/shorts/search?q=%EB%9D%BC%EB%96%BC%20%EC%95%84%ED%8A%B8');
    expect(searchPath('   ')).toBe('/shorts/search');
  });
});

describe('shorts back button', () => {
  it('goes back only when the app itself has an entry behind this one', () => {
    expect(hasInAppHistory({ idx: 2, key: 'k' })).toBe(true);
    expect(hasInAppHistory({ idx: 0, key: 'k' })).toBe(false);
    expect(hasInAppHistory(null)).toBe(false);
  });
});
