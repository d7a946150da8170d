import { shortsEndpoints as api, type ProcessingStatus } from '@ohgood/contract/shorts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shared/api-client';
import { invalidateAfter } from '../../../shared/query-keys';
import { type UploadProgress, withUploadProgress } from '../../../shared/upload-request';

/*
 * The upload's call, apart from the feed's (`shorts-api.ts`): its progress-reporting transport then loads
 * with the upload page only.
 */

const STATUS_POLL_MS = 1000;
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Uploads a short, telling `onSending` how much of it has gone, and waits, polling once a second, until the
 * server has transcoded it (the feed shows only playable videos) or `keepWaiting` says the page is gone. A
 * failed transcoding rejects with its reason.
 */
export function useUpload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({
      form,
      keepWaiting,
      onSending,
      onStored,
    }: {
      form: FormData;
      keepWaiting: () => boolean;
      /** How much of the form has gone to the server. */
      onSending: (progress: UploadProgress) => void;
      /** The server holds the bytes; transcoding has begun. */
      onStored?: () => void;
    }) => {
      const uploaded = await callEndpoint(api.upload, { body: form, transport: withUploadProgress(onSending) }).then(
        (body) => body.data,
      );
      onStored?.();
      let status: ProcessingStatus = uploaded.status;
      while (status === 'PROCESSING' && keepWaiting()) {
        await wait(STATUS_POLL_MS);
        const now = await callEndpoint(api.status, { params: { id: uploaded.shortsId } }).then((body) => body.data);
        status = now.status;
        if (status === 'FAILED') throw new Error(now.failureReason ?? '영상 변환에 실패했습니다.');
      }
      return uploaded;
    },
    onSuccess: () => {
      void invalidateAfter(client, 'upload');
    },
  });
}
