import { expect, it, vi } from 'vitest';
import { navigateTo, registerNavigator } from './navigation';

it('holds a navigation asked for before the router is there, and makes the latest one as it registers', () => {
  const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
  navigateTo('/login?next=%2Fmypage');
  navigateTo('/login?next=%2Fpayment', { replace: true });
  const navigate = vi.fn();
  registerNavigator(navigate);
  expect(navigate.mock.calls).toEqual([['/login?next=%2Fpayment', { replace: true }]]);
  // From then on each navigation goes straight to the router, and none reloads the page.
  navigateTo('/qrpin');
  expect(navigate).toHaveBeenLastCalledWith('/qrpin', undefined);
  expect(navigate).toHaveBeenCalledTimes(2);
  expect(assign).not.toHaveBeenCalled();
});
