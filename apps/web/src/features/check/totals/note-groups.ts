/** How many notes of one kind show before "Show N more". */
export const NOTES_PER_KIND = 3;

/** Notes of one kind, in the order they came: the first ones shown, how many more are folded. */
export interface NoteGroup<T> {
  kind: string;
  shown: T[];
  more: number;
}

/**
 * Groups notes by kind (in the order each kind first appears, each kept in time order) and folds
 * a kind after NOTES_PER_KIND unless it is open: 216 estimated runs read as three and "213 more".
 */
export function groupNotes<T>(
  notes: readonly T[],
  kindOf: (note: T) => string,
  open: ReadonlySet<string>,
): NoteGroup<T>[] {
  const byKind = new Map<string, T[]>();
  for (const note of notes) {
    const kind = kindOf(note);
    const list = byKind.get(kind);
    if (list) list.push(note);
    else byKind.set(kind, [note]);
  }
  return [...byKind].map(([kind, all]) => {
    const shown = open.has(kind) ? all : all.slice(0, NOTES_PER_KIND);
    return { kind, shown, more: all.length - shown.length };
  });
}
