/**
 * Hands a file to the browser as a download (an export, a CSV): a link to the blob, clicked once.
 * The object URL is revoked later, not at once: some browsers read it after click() returns.
 */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
