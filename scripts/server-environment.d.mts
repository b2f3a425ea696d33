/** glibc's allocator settings for the server (server-environment.mjs). */
export declare const MALLOC_SETTINGS: Readonly<
  Record<'MALLOC_MMAP_THRESHOLD_' | 'MALLOC_TRIM_THRESHOLD_', string>
>;

/** `env` with the allocator settings wherever it does not set them itself. */
export declare function withServerMalloc<T extends Record<string, string | undefined>>(
  env: T,
): T & Record<string, string | undefined>;
