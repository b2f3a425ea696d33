// @vitest-environment jsdom
import { configureStore } from '@reduxjs/toolkit';
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { authReducer, loseSession } from '@/features/auth/auth-slice.ts';
import { SessionLossRedirect } from './session-loss-redirect.tsx';

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

function renderAt(path: string, store: ReturnType<typeof makeStore>) {
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <SessionLossRedirect />
        <Routes>
          <Route path="*" element={<Where />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

const makeStore = () => configureStore({ reducer: { auth: authReducer } });

describe('after a lost session', () => {
  afterEach(cleanup);

  it('stays where it is while the session holds', () => {
    renderAt('/check', makeStore());
    expect(screen.getByTestId('where').textContent).toBe('/check');
  });

  it('goes to / even when the session was lost before the routes mounted', async () => {
    const store = makeStore();
    await store.dispatch(loseSession({ reason: 'expired', currentPath: '/check?meter=EM-1' }));
    renderAt('/check', store);
    expect(await screen.findByText('/')).toBeTruthy();
  });
});
