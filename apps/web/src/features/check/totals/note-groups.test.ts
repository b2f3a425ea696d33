import { describe, expect, it } from 'vitest';
import { groupNotes, NOTES_PER_KIND } from './note-groups.ts';

describe('groupNotes', () => {
  const notes = [
    ...Array.from({ length: 216 }, (_, i) => ({ kind: 'estimated', at: i })),
    { kind: 'gap', at: 5 },
    { kind: 'meterExchange', at: 9 },
  ];

  it('shows a few of each kind and counts the rest', () => {
    const groups = groupNotes(notes, (note) => note.kind, new Set());
    expect(groups.map((group) => [group.kind, group.shown.length, group.more])).toEqual([
      ['estimated', NOTES_PER_KIND, 216 - NOTES_PER_KIND],
      ['gap', 1, 0],
      ['meterExchange', 1, 0],
    ]);
    expect(groups[0]?.shown.map((note) => note.at)).toEqual([0, 1, 2]);
  });

  it('shows every note of an opened kind', () => {
    const groups = groupNotes(notes, (note) => note.kind, new Set(['estimated']));
    expect(groups[0]?.shown).toHaveLength(216);
    expect(groups[0]?.more).toBe(0);
  });
});
