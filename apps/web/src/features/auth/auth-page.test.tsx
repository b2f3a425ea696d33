// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderPage } from '@/test-support/render-page.tsx';
import { AuthPage } from './auth-page.tsx';

describe('the sign-in frame', () => {
  afterEach(cleanup);

  it('puts the language switcher in a landmark (issue 34, accessibility)', async () => {
    await renderPage(
      <AuthPage>
        <p>form</p>
      </AuthPage>,
    );
    const banner = screen.getByRole('banner');
    expect(within(banner).getByRole('combobox', { name: 'Interface language' })).toBeTruthy();
  });
});
