import { describe, expect, it } from 'vitest';
import { MALLOC_SETTINGS, withServerMalloc } from './server-environment.mjs';

describe("the server's allocator settings", () => {
  it('keep blocks under 32 MiB on the heap and up to 256 MiB of it free', () => {
    expect(withServerMalloc({ PORT: '0' })).toEqual({
      PORT: '0',
      MALLOC_MMAP_THRESHOLD_: '33554432',
      MALLOC_TRIM_THRESHOLD_: '268435456',
    });
    expect(Object.keys(MALLOC_SETTINGS).sort()).toEqual(['MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_']);
  });

  it('give way to the values the environment sets', () => {
    const env = withServerMalloc({ MALLOC_TRIM_THRESHOLD_: '131072' });
    expect(env.MALLOC_TRIM_THRESHOLD_).toBe('131072');
    expect(env.MALLOC_MMAP_THRESHOLD_).toBe('33554432');
  });
});
