import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { LoadingScreen } from './components/loading-screen.tsx';
import { startI18n } from './lib/i18n.ts';

// No offline mode: any service worker left by an older app on this origin is removed (spec §2).
if ('serviceWorker' in navigator) {
  navigator.serviceWorker
    .getRegistrations()
    .then((registrations) => Promise.all(registrations.map((registration) => registration.unregister())))
    .catch(() => undefined);
}

// Translations start loading now, in parallel with the app bundle.
startI18n();

const App = lazy(() => import('./app/app.tsx').then((module) => ({ default: module.App })));

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <Suspense fallback={<LoadingScreen />}>
        <App />
      </Suspense>
    </StrictMode>,
  );
}
