/* A CSV handed to the browser as a download (the console's exports, the portal's settlement statements). */

/** The byte-order mark Excel needs to read UTF-8; the caller's text decoding drops the server's. */
const BOM = '\uFEFF';

/** Hands `text` to the browser as a file download named `name`. */
export function saveCsv(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([BOM, text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the file over; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
