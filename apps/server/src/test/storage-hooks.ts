import type { MediaStorage } from '../modules/media/storage';

/**
 * A real storage with some calls wrapped (to count them, or to hold one at a gate): every other call goes to
 * the storage itself, bound, so stores with private fields (S3Storage) work.
 */
export function withHooks(storage: MediaStorage, overrides: Partial<Omit<MediaStorage, 'kind'>>): MediaStorage {
  return {
    kind: storage.kind,
    putFile: (key, file, type) => storage.putFile(key, file, type),
    size: (key) => storage.size(key),
    read: (key, range) => storage.read(key, range),
    download: (key, file) => storage.download(key, file),
    delete: (key) => storage.delete(key),
    list: (prefix) => storage.list(prefix),
    check: () => storage.check(),
    ...overrides,
  };
}
