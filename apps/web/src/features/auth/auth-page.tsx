import { Alert, Paper } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { LanguageSwitcher } from '@/components/language-switcher.tsx';
import { LogoMark } from '@/components/logo-mark.tsx';
import { PRODUCT_NAME } from '@/lib/config.ts';
import classes from './auth-page.module.css';

/** The frame of the pages outside the layout (login, change password): language switcher, one card with the brand. */
export function AuthPage({ children }: { children: ReactNode }) {
  return (
    <div className={classes.page}>
      {/* In a landmark, as every control of a page (issue 34, accessibility). */}
      <header className={classes.topBar}>
        <LanguageSwitcher />
      </header>
      <main className={classes.main}>
        <Paper className={classes.card} p="xl" radius="lg" withBorder>
          <div className={classes.brand}>
            <LogoMark size={44} />
            <span className={classes.brandName}>{PRODUCT_NAME}</span>
          </div>
          {children}
        </Paper>
      </main>
    </div>
  );
}

/** Why a form was refused, above its fields (announced at once). */
export function FormErrorAlert({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert" title={title}>
      {children}
    </Alert>
  );
}
