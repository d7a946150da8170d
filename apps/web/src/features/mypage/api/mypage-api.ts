import { paymentEndpoints } from '@ohgood/contract/payments';
import { callEndpoint } from '../../../shared/api-client';

export const fetchMypage = () => callEndpoint(paymentEndpoints.mypage);
