import { configureStore } from '@reduxjs/toolkit';
import { MantineProvider } from '@mantine/core';
import { configure, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { cssVariablesResolver, theme } from '@/app/theme.ts';
import { api } from '@/lib/api.ts';
import en from '../../public/locales/en.json';
import { testI18n } from './i18n.ts';

/** What jsdom lacks and Mantine asks for; motion is reduced, so dialogs open at once. */
export function completeDom(): void {
  // A page's first answers may take seconds on a busy machine: findBy… and waitFor wait that long.
  configure({ asyncUtilTimeout: 10_000 });
  window.matchMedia ??= (query: string) =>
    ({
      matches: query.includes('prefers-reduced-motion'),
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
  window.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
  // Mantine's autosizing text area listens for web fonts loading.
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget() });
  // The API key the server would put into index.html (lib/http-client.ts reads it).
  if (!document.querySelector('meta[name="cm-api-key"]')) {
    const meta = document.createElement('meta');
    meta.name = 'cm-api-key';
    meta.content = 'test-web-key';
    document.head.append(meta);
  }
}

/**
 * Renders a page as the app does — a store holding the app's one RTK Query API, the app's Mantine
 * theme, English translations, a router — with a store of its own per call (a fresh cache).
 * The server is whatever `fetch` the test installed (test-support/fetch-stub.ts). `at`: the address
 * the router starts at (for a page that reads its path's parameters).
 */
export async function renderPage(page: ReactNode, options: { at?: string } = {}) {
  completeDom();
  const i18n = await testI18n('en', { en });
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  const view = render(
    <Provider store={store}>
      <I18nextProvider i18n={i18n}>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
          <MemoryRouter initialEntries={[options.at ?? '/']}>{page}</MemoryRouter>
        </MantineProvider>
      </I18nextProvider>
    </Provider>,
  );
  return { ...view, store };
}
