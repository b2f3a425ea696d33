// What the server suite's global setup (global-setup.ts) hands to its test files.
declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL of the PostgreSQL server the server suite makes its databases on. */
    cmTestPostgresUrl: string;
    /** A database with every migration applied, which each test file's database copies. */
    cmTestTemplateDatabase: string;
  }
}

export {};
