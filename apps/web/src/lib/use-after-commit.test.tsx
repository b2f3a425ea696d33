// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { startTransition, useDeferredValue, useLayoutEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useValueAfterCommit } from './use-after-commit.ts';

type Later = (value: string) => string | null;

/** Logs, at each commit, the value it was given and what the hook under test made of it. */
function Probe({ value, later, log }: { value: string; later: Later; log: [string, string | null][] }) {
  const shown = later(value);
  useLayoutEffect(() => {
    log.push([value, shown]);
  });
  return null;
}

const useDeferred: Later = (value) => useDeferredValue<string | null>(value, null);

/** The commits of mounting the probe and then giving it another value, each in a transition (as the check page draws its readings). */
async function commitsOf(later: Later): Promise<[string, string | null][]> {
  const log: [string, string | null][] = [];
  const view = render(<></>);
  await act(async () => {
    startTransition(() => view.rerender(<Probe value="a" later={later} log={log} />));
  });
  await act(async () => {
    startTransition(() => view.rerender(<Probe value="b" later={later} log={log} />));
  });
  return log;
}

describe('useValueAfterCommit', () => {
  afterEach(cleanup);

  it('gives a value one commit after it first showed, even inside a transition (issue 38)', async () => {
    expect(await commitsOf(useValueAfterCommit)).toEqual([
      ['a', null],
      ['a', 'a'],
      ['b', 'a'],
      ['b', 'b'],
    ]);
  });

  it('is needed: useDeferredValue renders a transition’s new value in the same commit', async () => {
    expect(await commitsOf(useDeferred)).toEqual([
      ['a', null],
      ['a', 'a'],
      ['b', 'b'],
    ]);
  });
});
