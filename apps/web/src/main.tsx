import { lazy, startTransition, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { LoadingScreen } from './components/loading-screen.tsx';
import { repairBrowserLanguage } from './lib/browser-language.ts';
import { startI18n } from './lib/i18n.ts';
import { warmIntlOffMainThread } from './lib/warm-intl.ts';

// First of all: libraries read navigator.language when they load (lib/browser-language.ts).
repairBrowserLanguage();

// No offline mode: any service worker left by an older app on this origin is removed (spec §2).
if ('serviceWorker' in navigator) {
  navigator.serviceWorker
    .getRegistrations()
    .then((registrations) => Promise.all(registrations.map((registration) => registration.unregister())))
    .catch(() => undefined);
}

// Translations start loading now, in parallel with the app bundle; the time-zone data too, off the main thread.
startI18n();
warmIntlOffMainThread();

const App = lazy(() => import('./app/app.tsx').then((module) => ({ default: module.App })));

const container = document.getElementById('root');
if (container) {
  const root = createRoot(container);
  // A transition: React renders the app in slices of a few milliseconds, yielding to the browser
  // in between, instead of in one long task that a phone's CPU cannot interrupt.
  startTransition(() => {
    root.render(
      <StrictMode>
        <Suspense fallback={<LoadingScreen />}>
          <App />
        </Suspense>
      </StrictMode>,
    );
  });
}
