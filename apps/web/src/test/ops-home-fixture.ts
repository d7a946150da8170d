import type { OpsHome } from '@ohgood/contract/ops';

/** The console home's answer for a quiet day (no counts, no reconciliation, no alerts), changed by `overrides`. */
export function opsHome(overrides: Partial<OpsHome> = {}): OpsHome {
  return {
    date: '2026-11-10',
    payments: { count: 0, amount: 0 },
    refunds: { count: 0, amount: 0 },
    overdueCustomers: 0,
    autopayFailures: 0,
    openReports: 0,
    reconciliation: null,
    alerts: [],
    ...overrides,
  };
}
