import { config } from 'zod/v4/core';

/*
 * `zod` as the web app's modules and the contracts import it (vite.config.ts points `zod` here):
 * zod itself, set never to compile a parser with eval. The app's Content-Security-Policy allows no
 * eval (script-src 'self'); zod compiles a fast parser with `new Function` where it may, and to find
 * out it tries one on its first parse: a CSP violation reported on every page, caught or not.
 * Jitless, zod parses by walking the schema. Set here, it is set before any schema exists.
 */
config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
