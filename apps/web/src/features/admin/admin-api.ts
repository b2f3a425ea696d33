import { api } from '@/lib/api.ts';

/*
 * The administration's share of the app's one API: its cache tags. Each resource injects its own
 * endpoints into it from its own file (users/users-api.ts, devices/devices-api.ts, …); answers
 * are parsed with the contract's schemas (this chunk loads only for administrators, so zod's
 * weight is paid there). Lists are tagged per resource; every change invalidates the lists it can
 * affect, the audit log's among them.
 */
export const adminApi = api.enhanceEndpoints({
  addTagTypes: [
    'AdminUser',
    'AdminLocation',
    'AdminTariff',
    'AdminAlertRule',
    'AdminWebhook',
    'AdminDevice',
    'AdminApiKey',
    'AdminConnectApp',
    'AdminAudit',
    'ImportJob',
    'ImportMapping',
    'AdminSeries',
    'AdminLocationCarbon',
  ],
});
