import type { AbilityAction, AbilitySubject } from '@/lib/ability-context.ts';

/** A menu entry: shown only when the ability allows `action` on `subject`. */
export interface MenuItem {
  id: string;
  /** i18n key of the label. */
  labelKey: string;
  path: string;
  icon: 'check' | 'admin';
  action: AbilityAction;
  subject: AbilitySubject;
}

/** A titled group of entries. */
export interface MenuSection {
  id: string;
  titleKey: string;
  items: MenuItem[];
}

export const menuSections: MenuSection[] = [
  {
    id: 'meters',
    titleKey: 'menu.section.meters',
    items: [
      {
        id: 'check',
        labelKey: 'menu.check',
        path: '/check',
        icon: 'check',
        action: 'read',
        subject: 'Check',
      },
    ],
  },
  {
    id: 'administration',
    titleKey: 'menu.section.administration',
    items: [
      {
        id: 'admin',
        labelKey: 'menu.admin',
        path: '/admin',
        icon: 'admin',
        action: 'manage',
        subject: 'all',
      },
    ],
  },
];
