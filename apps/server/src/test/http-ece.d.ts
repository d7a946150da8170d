/** The part of http_ece (untyped, CommonJS) the Web Push test's device uses to decrypt. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  export function decrypt(
    buffer: Buffer | undefined,
    params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer },
  ): Buffer;
  const ece: { decrypt: typeof decrypt };
  export default ece;
}
