import { AUTOPAY_CONSENT, autopayEndpoints as api } from '@ohgood/contract/autopay';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { dataKeys } from '../../../shared/query-keys';

export const autopayQuery = queryOptions({
  queryKey: dataKeys.autopay,
  queryFn: () => callEndpoint(api.get).then((body) => body.data),
});

export function useAutopay() {
  return useQuery(autopayQuery);
}

/**
 * Whether the autopay setting has answered once, with the setting or an error: what a page composing the
 * autopay card waits for before showing it, so the card arrives at its full height. Not `isPending`: the card,
 * mounting after a failed answer, asks again, and with no data the query is pending again meanwhile, which
 * would take the page back to its skeleton and the card off it, over and over.
 */
export function useAutopayAnswered(): boolean {
  const setting = useAutopay();
  return setting.data !== undefined || setting.errorUpdatedAt > 0;
}

/** A change of the autopay setting: its answer replaces the cached setting; a refusal reloads it. */
function useAutopayChange<V>(call: (value: V) => ReturnType<typeof callEndpoint<typeof api.get>>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (body) => client.setQueryData(dataKeys.autopay, body.data),
    // A wrong or expired code changes the tries left and the open code: show the server's view.
    onError: () => void client.invalidateQueries({ queryKey: dataKeys.autopay }),
  });
}

/** Off only: turning it on goes through consent (`useConsentToAutopay`). */
export const useTurnOffAutopay = () =>
  useAutopayChange((_: undefined) => callEndpoint(api.set, { body: { autopay: false } }));

/** Turns autopay on with consent to the words the customer was shown. */
export const useConsentToAutopay = () =>
  useAutopayChange((_: undefined) =>
    callEndpoint(api.set, { body: { autopay: true, consentVersion: AUTOPAY_CONSENT.version } }),
  );

/** Asks the bank to deposit 1원 with a new code. */
export const useSendCode = () => useAutopayChange((_: undefined) => callEndpoint(api.sendCode));

export const useConfirmCode = () =>
  useAutopayChange((code: string) => callEndpoint(api.confirmCode, { body: { code } }));
