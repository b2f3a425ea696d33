import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, pickEncoding, withLowPriorityScripts, withScriptHashes } from './web-index.ts';

describe('pickEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['deflate', undefined],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['GZIP', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.2, gzip;q=0.8', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'br'],
    ['*;q=0', undefined],
    ['br;q=0, *', 'gzip'],
    [['gzip', 'br'], 'br'],
  ] as const)('%j → %s', (header, expected) => {
    expect(pickEncoding(header as string | string[] | undefined)).toBe(expected);
  });
});

describe('withScriptHashes', () => {
  const hash = "'sha256-abc='";
  it('adds the hashes to script-src, leaving the other directives alone', () => {
    expect(withScriptHashes("default-src 'self';script-src 'self';object-src 'none'", [hash])).toBe(
      `default-src 'self';script-src 'self' ${hash};object-src 'none'`,
    );
  });
  it('derives script-src from default-src when there is none', () => {
    expect(withScriptHashes("default-src 'self';object-src 'none'", [hash])).toBe(
      `default-src 'self';object-src 'none';script-src 'self' ${hash}`,
    );
  });
  it('changes nothing without hashes', () => {
    expect(withScriptHashes("script-src 'self'", [])).toBe("script-src 'self'");
  });
});

describe('inlineScriptHashes', () => {
  it('hashes the content of each inline script, not of scripts with a source', () => {
    const html =
      '<script>var a = 1;</script><script src="/x.js"></script><script type="module" src="/y.js"></script>';
    // echo -n 'var a = 1;' | openssl dgst -sha256 -binary | base64
    expect(inlineScriptHashes(html)).toEqual(["'sha256-+dZ6udsWxNVoGfScAq7t5IIF5UJb4F6RhjbN6oe1p4w='"]);
  });
});

describe('withLowPriorityScripts', () => {
  it('fetches the entry script and its module preloads at low priority, and nothing else', () => {
    const html =
      '<link rel="preload" href="/locales/en.json" as="fetch" crossorigin /><script>boot()</script>' +
      '<script type="module" crossorigin src="/assets/index.js"></script>' +
      '<link rel="modulepreload" crossorigin href="/assets/web.js">' +
      '<link rel="modulepreload" fetchpriority="high" href="/assets/kept.js">';
    expect(withLowPriorityScripts(html)).toBe(
      '<link rel="preload" href="/locales/en.json" as="fetch" crossorigin /><script>boot()</script>' +
        '<script type="module" fetchpriority="low" crossorigin src="/assets/index.js"></script>' +
        '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/web.js">' +
        '<link rel="modulepreload" fetchpriority="high" href="/assets/kept.js">',
    );
  });
});
