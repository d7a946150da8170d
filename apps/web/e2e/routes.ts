/** Every screen of the app at a 390×844 phone, for the touch-target check and the screenshot command. */
export interface Screen {
  name: string;
  path: string;
  /** Needs a signed-in customer. */
  auth: boolean;
}

export const SCREENS: Screen[] = [
  { name: 'home', path: '/', auth: true },
  { name: 'home-logged-out', path: '/', auth: false },
  { name: 'login', path: '/login', auth: false },
  { name: 'register', path: '/register', auth: false },
  { name: 'qrpin', path: '/qrpin', auth: true },
  { name: 'payment', path: '/payment', auth: true },
  { name: 'payment-details', path: '/payment/details', auth: true },
  { name: 'payment-autopay', path: '/payment/autopay', auth: true },
  { name: 'point-history', path: '/point/history', auth: true },
  { name: 'mypage', path: '/mypage', auth: true },
  { name: 'chat', path: '/chat', auth: true },
  { name: 'dashboard', path: '/dashboard', auth: true },
  { name: 'shorts-feeds', path: '/shorts/feeds', auth: true },
  { name: 'shorts-upload', path: '/shorts/upload', auth: true },
  { name: 'shorts-record', path: '/shorts/feeds/test', auth: true },
  { name: 'shorts-search', path: '/shorts/search', auth: false },
  { name: 'shorts-mypage', path: '/shorts/mypage', auth: true },
  { name: 'shorts-subscribe', path: '/shorts/mypage/subscribe', auth: true },
  { name: 'shorts-liked', path: '/shorts/mypage/all', auth: true },
  { name: 'shorts-commented', path: '/shorts/mypage/comments', auth: true },
  { name: 'shorts-profile', path: '/shorts/profile?targetId=1', auth: true },
  { name: 'shorts-profile-edit', path: '/shorts/profile/edit', auth: true },
  { name: 'shorts-profile-all', path: '/shorts/profile/all', auth: false },
  { name: 'merchant', path: '/merchant', auth: false },
  { name: 'merchant-portal', path: '/merchant/portal', auth: false },
  { name: 'not-found', path: '/no-such-page', auth: false },
];
