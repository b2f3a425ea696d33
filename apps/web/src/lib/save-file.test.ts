// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveFile } from './save-file.ts';

describe('saveFile', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('clicks a download link to the blob under the given name, then lets the URL go', () => {
    vi.useFakeTimers();
    const blob = new Blob(['a;b\n'], { type: 'text/csv' });
    const created: Blob[] = [];
    const revoked: string[] = [];
    URL.createObjectURL = (object: Blob | MediaSource) => {
      if (object instanceof Blob) created.push(object);
      return 'blob:cm/1';
    };
    URL.revokeObjectURL = (url: string) => void revoked.push(url);
    const clicked: { href: string; download: string; isInPage: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, isInPage: document.body.contains(this) });
    });

    saveFile(blob, 'EM-1_2026-01-01_2026-01-31.csv');

    expect(created).toEqual([blob]);
    expect(clicked).toEqual([
      { href: 'blob:cm/1', download: 'EM-1_2026-01-01_2026-01-31.csv', isInPage: true },
    ]);
    expect(document.querySelector('a[download]')).toBeNull();
    expect(revoked).toEqual([]);
    vi.advanceTimersByTime(10_000);
    expect(revoked).toEqual(['blob:cm/1']);
  });
});
