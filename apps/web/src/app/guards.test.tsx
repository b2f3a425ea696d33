// @vitest-environment jsdom
import { configureStore } from '@reduxjs/toolkit';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { UserRecord } from '@cm/contracts/auth.ts';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authReducer, loginSucceeded } from '@/features/auth/auth-slice.ts';
import { sessionEnded } from '@/lib/session-events.ts';
import { GuestOnly, RequireAuth, RequireSession } from './guards.tsx';

const record: UserRecord = {
  user: { id: 8, email: 'client.b@demo.cm', fullName: 'Bo Client', role: 2, mustChangePassword: true },
  isLoggedIn: true,
  token: 'tok-8',
  role: 2,
  tokenExpiresAt: 1_900_000_000_000,
  ability: [{ action: 'read', subject: 'Check' }],
};

/** Shows where the router is and the page it was sent from. */
function Where() {
  const location = useLocation();
  const from: unknown =
    location.state && typeof location.state === 'object' && 'from' in location.state
      ? location.state.from
      : null;
  return <output data-testid="where">{`${location.pathname} ${String(from)}`}</output>;
}

function renderAt(path: string, store: ReturnType<typeof makeStore>) {
  return render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route
            path="/login"
            element={
              <GuestOnly>
                <Where />
              </GuestOnly>
            }
          />
          <Route
            path="/change-password"
            element={
              <RequireSession>
                <Where />
              </RequireSession>
            }
          />
          <Route
            path="*"
            element={
              <RequireAuth>
                <Where />
              </RequireAuth>
            }
          />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

function makeStore() {
  return configureStore({ reducer: { auth: authReducer } });
}

const where = () => screen.getByTestId('where').textContent;

describe('route guards', () => {
  let store: ReturnType<typeof makeStore>;
  beforeEach(() => {
    localStorage.clear();
    store = makeStore();
  });
  afterEach(cleanup);

  it.each(['/check?meter=EM-1', '/admin/users', '/nowhere', '/login'])(
    'a user with a pending password change is sent from %s to /change-password',
    (path) => {
      store.dispatch(loginSucceeded(record));
      renderAt(path, store);
      // /login sends a logged-in user to its landing page first, which sends it on.
      expect(where()).toBe(`/change-password ${path === '/login' ? '/check' : path}`);
    },
  );

  it('once the password is changed, the pages open again', () => {
    store.dispatch(loginSucceeded({ ...record, user: { ...record.user, mustChangePassword: false } }));
    renderAt('/check?meter=EM-1', store);
    expect(where()).toBe('/check null');
  });

  it('/change-password opens for any logged-in user, and sends a guest to /login', () => {
    store.dispatch(loginSucceeded({ ...record, user: { ...record.user, mustChangePassword: false } }));
    renderAt('/change-password', store);
    expect(where()).toBe('/change-password null');
    cleanup();
    renderAt('/change-password', makeStore());
    expect(where()).toBe('/login /change-password');
  });

  it('a session ended while a page is open (e.g. by another tab) sends it to /login', () => {
    store.dispatch(loginSucceeded(record));
    renderAt('/change-password', store);
    act(() => {
      store.dispatch(sessionEnded({ reason: 'logout' }));
    });
    expect(where()).toBe('/login /change-password');
  });
});
