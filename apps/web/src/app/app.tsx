// Mantine styles of the pages outside the layout, in Mantine's order (the layout adds its own:
// src/layout/mantine-styles.ts; mantine-styles.test.ts checks both lists).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Title.layer.css';
import './app.css';
import { DirectionProvider, MantineProvider, useDirection } from '@mantine/core';
import { useEffect } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { AppToaster } from '@/components/toaster.tsx';
import { useAppSelector } from './hooks.ts';
import { AppRoutes } from './router.tsx';
import { wireSessionLoss } from './session-wiring.ts';
import { store } from './store.ts';
import { cssVariablesResolver, theme } from './theme.ts';

wireSessionLoss(store.dispatch);

/** Applies skin and direction to <html> (Mantine reads `dir` for its RTL styles). */
function PreferencesSync() {
  const skin = useAppSelector((state) => state.layout.skin);
  const isRtl = useAppSelector((state) => state.layout.isRtl);
  const { setDirection } = useDirection();
  useEffect(() => {
    document.documentElement.setAttribute('data-skin', skin);
  }, [skin]);
  useEffect(() => {
    setDirection(isRtl ? 'rtl' : 'ltr');
  }, [isRtl, setDirection]);
  return null;
}

function ThemedApp() {
  const skin = useAppSelector((state) => state.layout.skin);
  return (
    <DirectionProvider
      initialDirection={store.getState().layout.isRtl ? 'rtl' : 'ltr'}
      detectDirection={false}
    >
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        forceColorScheme={skin === 'dark' ? 'dark' : 'light'}
      >
        <PreferencesSync />
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
        <AppToaster />
      </MantineProvider>
    </DirectionProvider>
  );
}

/** The app: store, theme, direction, permissions, routes and toasts. Lazy-loaded by main.tsx. */
export function App() {
  return (
    <Provider store={store}>
      <ThemedApp />
    </Provider>
  );
}
