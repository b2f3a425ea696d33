// @vitest-environment jsdom
import { Drawer, MantineProvider, Modal } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { completeDom } from '@/test-support/render-page.tsx';
import { theme } from './theme.ts';

describe('dialogs under the theme', () => {
  afterEach(cleanup);

  it('add no second banner landmark: their <header> has no landmark role (issue 34, accessibility)', async () => {
    completeDom();
    render(
      <MantineProvider theme={theme}>
        <header>The page’s banner</header>
        <Modal opened onClose={() => {}} title="A modal" transitionProps={{ duration: 0 }}>
          Body
        </Modal>
        <Drawer opened onClose={() => {}} title="A drawer" transitionProps={{ duration: 0 }}>
          Body
        </Drawer>
      </MantineProvider>,
    );
    await screen.findByText('A drawer');
    const dialogs = screen.getAllByRole('dialog');
    expect(dialogs).toHaveLength(2);
    // axe and Chromium take a <header> inside a <section role="dialog"> for a banner unless it is
    // given another role.
    for (const dialog of dialogs) {
      const header = dialog.querySelector('header');
      expect(header?.getAttribute('role')).toBe('presentation');
    }
    expect(screen.getAllByRole('banner')).toHaveLength(1);
  });
});
