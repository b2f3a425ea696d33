import { PRODUCT_NAME } from '@/lib/config.ts';
import { LogoMark } from './logo-mark.tsx';

/**
 * The full-page placeholder (same markup and classes as the one in index.html, whose inline
 * styles it reuses): the product logo and three animated bars.
 */
export function LoadingScreen() {
  return (
    <div className="cm-loading" role="status" aria-live="polite">
      <LogoMark className="cm-loading-logo" />
      <div className="cm-loading-bars" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <span className="cm-visually-hidden">{PRODUCT_NAME}</span>
    </div>
  );
}
