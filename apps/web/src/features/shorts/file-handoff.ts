/**
 * The chosen or recorded file's info (name, type, size, url, lastModified) goes to session storage
 * as the handoff to the upload page; `url` is an object URL, valid for this document. An upload in flight
 * hands its file off again with the words typed for it (`draft`), so a refusal that sends the customer to
 * log in brings them back to the same form.
 */
const KEY = 'shortsUploadFile';

export interface HandoffInfo {
  name: string;
  type: string;
  size: number;
  url: string;
  lastModified: number;
  draft?: UploadDraft;
}

/** What the customer typed for an upload they sent. */
export interface UploadDraft {
  title: string;
  content: string;
}

export function handOff(file: File, draft?: UploadDraft): HandoffInfo {
  const earlier = readHandoff();
  if (earlier) URL.revokeObjectURL(earlier.url);
  const info: HandoffInfo = {
    name: file.name,
    type: file.type,
    size: file.size,
    url: URL.createObjectURL(file),
    lastModified: file.lastModified,
    ...(draft ? { draft } : {}),
  };
  sessionStorage.setItem(KEY, JSON.stringify(info));
  return info;
}

export function readHandoff(): HandoffInfo | null {
  const raw = sessionStorage.getItem(KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as HandoffInfo;
  } catch {
    return null;
  }
}

export function clearHandoff(): void {
  sessionStorage.removeItem(KEY);
}

/** Rebuilds the File from its object URL; null when the URL no longer resolves (e.g. after a reload). */
export async function takeHandoffFile(info: HandoffInfo): Promise<File | null> {
  try {
    const blob = await (await fetch(info.url)).blob();
    return new File([blob], info.name, { type: info.type || blob.type, lastModified: info.lastModified });
  } catch {
    return null;
  }
}
