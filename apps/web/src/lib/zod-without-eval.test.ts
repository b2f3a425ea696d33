import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { config } from 'zod/v4/core';

describe('zod in the web app', () => {
  it('is the one vite.config.ts points `zod` to: it never compiles a parser with eval', () => {
    expect(config().jitless).toBe(true);
    const schema = z.object({ meterNumber: z.string(), channels: z.array(z.number()) });
    const original = globalThis.Function;
    const tried: unknown[] = [];
    globalThis.Function = new Proxy(original, {
      construct(target, args: unknown[]) {
        tried.push(args);
        return Reflect.construct(target, args) as object;
      },
    });
    try {
      expect(schema.parse({ meterNumber: 'EM-10001', channels: [1, 2] })).toEqual({
        meterNumber: 'EM-10001',
        channels: [1, 2],
      });
      expect(schema.safeParse({ meterNumber: 7 }).success).toBe(false);
    } finally {
      globalThis.Function = original;
    }
    expect(tried).toEqual([]);
  });
});
