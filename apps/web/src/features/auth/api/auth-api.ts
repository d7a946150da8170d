import type { LoginRequest, LoginResponse, RegisterRequest } from '@ohgood/contract/auth';
import { api } from '../../../shared/api-client';

export const login = (body: LoginRequest) => api.post<LoginResponse>('/auth', body);
export const register = (body: RegisterRequest) => api.post<{ customerId: number }>('/api/public/register', body);
