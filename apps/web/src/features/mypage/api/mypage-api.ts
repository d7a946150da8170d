import type { Mypage } from '@ohgood/contract/payments';
import { api } from '../../../shared/api-client';

export const fetchMypage = () => api.get<Mypage>('/api/mypage');
