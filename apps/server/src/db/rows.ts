import type { Table } from 'drizzle-orm';

/** `fullName` → `full_name`: how a Drizzle property is named as a column. */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/**
 * A table's row as raw SQL answers it — snake_case column names, the types Drizzle infers from
 * schema.ts — so that the queries' row types come from the one schema instead of being written
 * again. Queries pick the columns they select: `Pick<RowOf<typeof users>, 'id' | 'email'>`.
 */
export type RowOf<T extends Table> = {
  [K in keyof T['$inferSelect'] & string as SnakeCase<K>]: T['$inferSelect'][K];
};

/** Columns of a LEFT JOINed table: each may be null. */
export type Nullable<T> = { [K in keyof T]: T[K] | null };
