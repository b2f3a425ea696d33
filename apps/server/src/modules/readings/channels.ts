/** Channel numbers as stored (contracts `channels`: import, export). */
export const CHANNEL_NUMBER = { import: 1, export: 2 } as const;

/** Kinds of stored readings (chunks and revisions). */
export const ReadingKind = { register: 0, interval: 1 } as const;
export type ReadingKind = (typeof ReadingKind)[keyof typeof ReadingKind];
