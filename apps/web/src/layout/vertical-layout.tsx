// The styles of the Mantine components of the pages inside the layout come with this chunk.
import './mantine-styles.ts';
import { ActionIcon, Affix, Burger, Kbd, Loader, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMoon, IconSearch, IconSettings, IconSun } from '@tabler/icons-react';
import { AbilityProvider } from '@casl/react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { shallowEqual } from 'react-redux';
import { Outlet } from 'react-router';
import { useAppDispatch, useAppSelector, useAppStore } from '@/app/hooks.ts';
import { injectApi } from '@/app/store.ts';
import { buildAbility, sameRules } from '@/lib/ability.ts';
import { api } from '@/lib/api.ts';
import { LanguageSwitcher } from '@/components/language-switcher.tsx';
import { useSessionKeepAlive } from '@/features/auth/use-session-keep-alive.ts';
import { PRODUCT_NAME } from '@/lib/config.ts';
import { useIsPhone } from '@/lib/use-is-phone.ts';
import { BookmarkLinks, BookmarksMenu } from './bookmarks-menu.tsx';
import { AlertsBell } from './alerts-bell.tsx';
import { useGetBookmarksDataQuery } from '@/lib/bookmarks-api.ts';
import { menuCollapsedChanged, queryChanged, selectPreferences, skinChanged } from './layout-slice.ts';
import { TooltipOnUse } from './mount-on-use.tsx';
import { UserMenu } from './user-menu.tsx';
import { VerticalMenu } from './vertical-menu.tsx';
import classes from './vertical-layout.module.css';

// Pages under this layout use RTK Query: its reducer and middleware join the store now, before
// any of them renders.
injectApi(api);

// The customizer, the search dialog and the phone menu load and mount when first opened: the first
// paint of every signed-in page needs none of them (closed, each still rendered a portal and its
// frame). The keys typed while the search loads go into its query (useSearchHotkeys).
const Customizer = lazy(() => import('./customizer.tsx').then((module) => ({ default: module.Customizer })));
const SearchDialog = lazy(() =>
  import('./search-dialog.tsx').then((module) => ({ default: module.SearchDialog })),
);
const PhoneMenu = lazy(() => import('./phone-menu.tsx').then((module) => ({ default: module.PhoneMenu })));

/** The bookmarks query's result as the layout sees it: nothing (the answer goes to the layout slice). */
const NO_RESULT = {};

/** True from the first time `opened` is true on (so that a closed drawer can still animate out). */
function useOpenedOnce(opened: boolean): boolean {
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened && !wasOpened) setWasOpened(true);
  return wasOpened;
}

function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * `/` (outside text fields) or Ctrl/⌘+K opens the search. The dialog's code mounts on first open,
 * so the keys typed right after the hotkey, before its field has focus, go into the query
 * instead of being lost.
 */
function useSearchHotkeys(open: () => void, isOpen: boolean) {
  const store = useAppStore();
  const dispatch = useAppDispatch();
  useEffect(() => {
    function handleKeyDown(event: KeyboardEvent) {
      const isPlain = !event.ctrlKey && !event.metaKey && !event.altKey;
      if (isOpen) {
        if (isPlain && event.key.length === 1 && !isTypingTarget(event.target)) {
          event.preventDefault();
          dispatch(queryChanged(store.getState().layout.query + event.key));
        }
        return;
      }
      const isSlash = event.key === '/' && isPlain && !isTypingTarget(event.target);
      const isModK = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k';
      if (isSlash || isModK) {
        event.preventDefault();
        open();
      }
    }
    document.addEventListener('keydown', handleKeyDown);
    return () => document.removeEventListener('keydown', handleKeyDown);
  }, [open, isOpen, store, dispatch]);
}

/** The session's renewals and the current user's load; a component of its own, so that they re-render nothing else. */
function SessionKeepAlive() {
  useSessionKeepAlive();
  return null;
}

/** Above the page and its sticky navbar, below Mantine's drawers and modals (200). */
const FLOATING_BUTTON_Z_INDEX = 100;

/**
 * The vertical layout (spec §9 defaults): collapsible menu (a drawer on phones), floating
 * navbar with search, bookmarks, language, skin and user menu, boxed content, static footer.
 */
export function VerticalLayout() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const layout = useAppSelector(selectPreferences, shallowEqual);
  const isPhone = useIsPhone();
  const [isDrawerOpen, drawer] = useDisclosure(false);
  const [isSearchOpen, search] = useDisclosure(false);
  const [isCustomizerOpen, customizer] = useDisclosure(false);
  const rules = useAppSelector((state) => state.auth.ability, sameRules);
  const ability = useMemo(() => buildAbility(rules), [rules]);
  const hasOpenedCustomizer = useOpenedOnce(isCustomizerOpen);
  const hasOpenedSearch = useOpenedOnce(isSearchOpen);
  const hasOpenedDrawer = useOpenedOnce(isDrawerOpen);

  // Loads suggestions and bookmarks into the layout slice; the answer itself re-renders nothing here.
  useGetBookmarksDataQuery(undefined, { selectFromResult: () => NO_RESULT });
  useSearchHotkeys(search.open, isSearchOpen);

  const isDark = layout.skin === 'dark';
  const collapsed = layout.isMenuCollapsed ? '' : undefined;

  return (
    <AbilityProvider value={ability}>
      <a href="#main-content" className={classes.skipLink}>
        {t('layout.skipToContent')}
      </a>
      <div className={classes.shell}>
        {!isPhone && (
          <aside className={classes.menu} data-collapsed={collapsed} aria-label={t('menu.label')}>
            <VerticalMenu
              isCollapsed={layout.isMenuCollapsed}
              onToggleCollapsed={() => dispatch(menuCollapsedChanged(!layout.isMenuCollapsed))}
            />
          </aside>
        )}

        <div className={classes.main} data-collapsed={collapsed}>
          {layout.navbarType !== 'hidden' && (
            <div className={classes.navbarWrap} data-type={layout.navbarType}>
              <div className={classes.container} data-width={layout.contentWidth}>
                <header className={classes.navbar}>
                  {isPhone && (
                    <Burger
                      opened={isDrawerOpen}
                      onClick={drawer.toggle}
                      size="sm"
                      aria-label={t('menu.open')}
                    />
                  )}
                  {isPhone ? (
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="lg"
                      onClick={search.open}
                      aria-label={t('search.open')}
                      aria-keyshortcuts="/ Control+K"
                    >
                      <IconSearch size={20} aria-hidden />
                    </ActionIcon>
                  ) : (
                    <UnstyledButton
                      className={classes.searchTrigger}
                      onClick={search.open}
                      aria-keyshortcuts="/ Control+K"
                      title={t('search.open')}
                    >
                      <IconSearch size={18} aria-hidden />
                      <span className={classes.searchText}>{t('search.trigger')}</span>
                      <Kbd size="xs" aria-hidden>
                        /
                      </Kbd>
                    </UnstyledButton>
                  )}
                  <BookmarkLinks />
                  <div className={classes.spacer} />
                  <AlertsBell />
                  <BookmarksMenu />
                  <LanguageSwitcher isCompact={isPhone} />
                  <TooltipOnUse label={isDark ? t('skin.toLight') : t('skin.toDark')}>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="lg"
                      onClick={() => dispatch(skinChanged(isDark ? 'light' : 'dark'))}
                      aria-label={isDark ? t('skin.toLight') : t('skin.toDark')}
                    >
                      {isDark ? <IconSun size={20} aria-hidden /> : <IconMoon size={20} aria-hidden />}
                    </ActionIcon>
                  </TooltipOnUse>
                  <UserMenu onOpenCustomizer={customizer.open} />
                </header>
              </div>
            </div>
          )}

          <main id="main-content" tabIndex={-1} className={classes.content}>
            <div className={classes.container} data-width={layout.contentWidth}>
              <Suspense
                fallback={
                  <div className={classes.pageLoader}>
                    <Loader aria-label={t('common.loading')} />
                  </div>
                }
              >
                <Outlet />
              </Suspense>
            </div>
          </main>

          {layout.footerType !== 'hidden' && (
            <footer className={classes.footer} data-type={layout.footerType}>
              <div className={classes.container} data-width={layout.contentWidth}>
                {t('footer.copyright', { year: new Date().getFullYear(), product: PRODUCT_NAME })}
              </div>
            </footer>
          )}
        </div>
      </div>

      <SessionKeepAlive />
      <Suspense fallback={null}>
        {hasOpenedSearch ? <SearchDialog opened={isSearchOpen} onClose={search.close} /> : null}
        {hasOpenedDrawer ? <PhoneMenu opened={isPhone && isDrawerOpen} onClose={drawer.close} /> : null}
        {hasOpenedCustomizer && (
          <Customizer opened={isCustomizerOpen} onClose={customizer.close} isPhone={isPhone} />
        )}
      </Suspense>
      {/* On a desk only (a phone reaches the customizer from the user menu, and a floating button
          would cover its content). `right` is the inline end: bottom-left in right-to-left. Below
          drawers and dialogs (z-index 200), so their overlay covers it. */}
      {isPhone ? null : (
        <Affix position={{ bottom: 24, right: 24 }} zIndex={FLOATING_BUTTON_Z_INDEX}>
          <TooltipOnUse label={t('customizer.open')}>
            <ActionIcon size="xl" radius="xl" onClick={customizer.open} aria-label={t('customizer.open')}>
              <IconSettings size={22} aria-hidden />
            </ActionIcon>
          </TooltipOnUse>
        </Affix>
      )}
    </AbilityProvider>
  );
}
