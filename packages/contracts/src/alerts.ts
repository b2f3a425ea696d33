import { z } from 'zod';
import { languageSchema } from './auth.ts';

// Alerts (issue 18): rules an administrator sets per location (every meter, or one), evaluated by
// the server on a schedule and after imports and device batches. A rule fires once per episode
// (while its condition holds) and says when the episode cleared. The administrators and the
// clients of the location are told, each as they chose: in the app, by e-mail, or not at all.

/** What a rule watches. */
export const alertKinds = [
  /** No reading for `threshold` hours (the Cube and AccessPoint say whether they are silent too). */
  'silent',
  /** Yesterday's consumption above `threshold` kWh. */
  'dailyAbove',
  /** Yesterday's consumption above `threshold` × the same weekday's average over the 4 weeks before. */
  'usualAbove',
  /** A register went down or rolled over. */
  'registerDecrease',
  /** The bill of the location's current billing period, up to now, above `threshold` in its currency. */
  'billAbove',
  /**
   * A dynamic tariff's import price per kWh (its series with margin and tax) above `threshold` in
   * the location's currency in some interval of the next PRICE_LOOKAHEAD_HOURS: told ahead of time.
   */
  'priceAbove',
  /**
   * This month's peak is about to be exceeded: the latest interval's average power above
   * `threshold` % of the highest of the local month's intervals before it (issue 36).
   */
  'peakNear',
] as const;

/** How far ahead priceAbove looks: a day-ahead market publishes tomorrow's prices today. */
export const PRICE_LOOKAHEAD_HOURS = 36;
/** An alert kind. */
export type AlertKind = (typeof alertKinds)[number];

/** Weeks of the same weekday that make the usual day. */
export const USUAL_WEEKS = 4;

const kindSchema = z.enum(alertKinds, { message: `kind must be one of ${alertKinds.join(', ')}.` });

/** `POST /api/admin/alert-rules` body. */
export const alertRuleBodySchema = z
  .object({
    locationId: z
      .number({ message: 'locationId must be a positive whole number.' })
      .int('locationId must be a positive whole number.')
      .positive('locationId must be a positive whole number.')
      .max(2_147_483_647, 'locationId is too large.'),
    /** One meter of the location; absent or null for every meter of it. */
    meterNumber: z.string().trim().min(1).max(64).nullable().default(null),
    kind: kindSchema,
    /** Hours (silent), kWh (dailyAbove), a factor (usualAbove); none for registerDecrease. */
    threshold: z
      .number({ message: 'threshold must be a number.' })
      .positive('threshold must be above 0.')
      .max(1_000_000, 'threshold must be at most 1,000,000.')
      .nullable()
      .default(null),
  })
  .superRefine((body, context) => {
    if (body.kind !== 'registerDecrease' && body.threshold === null)
      context.addIssue({
        code: 'custom',
        path: ['threshold'],
        message: `threshold is required for ${body.kind}: ${THRESHOLD_UNIT[body.kind]}.`,
      });
    if (body.kind === 'peakNear' && body.threshold !== null && body.threshold > 100)
      context.addIssue({
        code: 'custom',
        path: ['threshold'],
        message: "threshold must be at most 100 for peakNear: a percentage of the month's peak, such as 90.",
      });
    if (body.kind === 'usualAbove' && body.threshold !== null && body.threshold <= 1)
      context.addIssue({
        code: 'custom',
        path: ['threshold'],
        message: 'threshold must be above 1 for usualAbove: a factor of the usual day, such as 2.',
      });
  });
/** A new alert rule. */
export type AlertRuleBody = z.input<typeof alertRuleBodySchema>;

const THRESHOLD_UNIT: Record<AlertKind, string> = {
  silent: 'hours without a reading',
  dailyAbove: 'kWh in a day',
  usualAbove: 'a factor of the usual day',
  registerDecrease: 'none',
  billAbove: "an amount in the location's currency",
  priceAbove: "a price per kWh in the location's currency",
  peakNear: "a percentage of the month's peak so far",
};

/**
 * The kinds a customer may set on their own (issue 34): a budget ("tell me when this bill passes
 * €80") and a high-use day ("a day above 30 kWh"), each on one meter they can see.
 */
export const ownAlertKinds = ['billAbove', 'dailyAbove'] as const;

const ownThresholdSchema = z
  .number({ message: 'threshold must be a number.' })
  .positive('threshold must be above 0.')
  .max(1_000_000, 'threshold must be at most 1,000,000.');

/** `POST /api/alerts/rules` body: a rule of the caller's own on one meter they can see. */
export const ownAlertRuleBodySchema = z.object({
  meterNumber: z
    .string({ message: 'meterNumber is required.' })
    .trim()
    .min(1, 'meterNumber is required.')
    .max(64, 'meterNumber is at most 64 characters.'),
  kind: z.enum(ownAlertKinds, { message: `kind must be one of ${ownAlertKinds.join(', ')}.` }),
  /** An amount in the location's currency (billAbove), kWh in a day (dailyAbove). */
  threshold: ownThresholdSchema,
});
/** A customer's new own rule. */
export type OwnAlertRuleBody = z.output<typeof ownAlertRuleBodySchema>;

/** `PUT /api/alerts/rules/:id` body: a new threshold for one of the caller's own rules. */
export const ownAlertRuleUpdateSchema = z.object({ threshold: ownThresholdSchema });

/** An alert rule as the API shows it. */
export const alertRuleSchema = z.object({
  id: z.number().int(),
  locationId: z.number().int(),
  locationName: z.string(),
  meterNumber: z.string().nullable(),
  kind: kindSchema,
  threshold: z.number().nullable(),
  createdAt: z.string(),
  /** Episodes going on now. */
  openEpisodes: z.number().int(),
});
/** An alert rule. */
export type AlertRule = z.infer<typeof alertRuleSchema>;

/** `GET /api/admin/alert-rules` query: one location's rules, or all. */
export const alertRuleListQuerySchema = z.object({
  locationId: z.coerce
    .number({ message: 'locationId must be a positive whole number.' })
    .int('locationId must be a positive whole number.')
    .positive('locationId must be a positive whole number.')
    .max(2_147_483_647, 'locationId is too large.')
    .optional(),
});

/** `GET /api/admin/alert-rules` answer. */
export const alertRuleListSchema = z.object({ items: z.array(alertRuleSchema) });

/** What an episode says, by kind (numbers in the meter's unit, instants ISO 8601 UTC). */
export const alertDetailSchema = z.object({
  /** silent: the meter's last reading (null: never), and whether its Cube and AccessPoint are silent too. */
  lastSeenAt: z.string().nullable().optional(),
  cubeSilent: z.boolean().nullable().optional(),
  accessPointSilent: z.boolean().nullable().optional(),
  /** dailyAbove, usualAbove: the local day, its energy, and the usual day's. */
  day: z.string().optional(),
  consumption: z.number().optional(),
  usual: z.number().nullable().optional(),
  /** billAbove: the bill so far, its currency, and the first day of its billing period. */
  amount: z.number().optional(),
  currency: z.string().optional(),
  periodFrom: z.string().optional(),
  /** priceAbove: the first interval above (`at`), its price per kWh (`amount`) and `currency`. */
  /** peakNear: the latest interval's power and the month's peak before it (kW), and when that peak was. */
  power: z.number().optional(),
  peak: z.number().optional(),
  peakAt: z.string().optional(),
  /** registerDecrease (and peakNear: the latest interval's start): when, and the registers before and after. */
  at: z.string().optional(),
  from: z.number().optional(),
  to: z.number().optional(),
});
/** An alert's detail. */
export type AlertDetail = z.infer<typeof alertDetailSchema>;

/** One notification: an episode began (`fired`) or ended (`cleared`). */
export const alertNotificationSchema = z.object({
  id: z.number().int(),
  event: z.enum(['fired', 'cleared']),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  alert: z.object({
    id: z.number().int(),
    kind: kindSchema,
    threshold: z.number().nullable(),
    meterNumber: z.string(),
    locationName: z.string(),
    timeZone: z.string(),
    startedAt: z.string(),
    clearedAt: z.string().nullable(),
    detail: alertDetailSchema,
  }),
});
/** A notification. */
export type AlertNotification = z.infer<typeof alertNotificationSchema>;

/** `GET /api/alerts` answer: the caller's latest notifications and how many are unread. */
export const alertInboxSchema = z.object({
  unread: z.number().int(),
  items: z.array(alertNotificationSchema),
});
/** The caller's alert inbox. */
export type AlertInbox = z.infer<typeof alertInboxSchema>;

/** Most notifications the inbox lists. */
export const MAX_INBOX = 50;

/** `POST /api/alerts/read` body: these notifications, or all of the caller's. */
export const alertReadBodySchema = z.object({
  ids: z.array(z.number().int().positive()).max(MAX_INBOX).optional(),
});

/** How a person hears of each kind: in the app, by e-mail. */
export const alertPreferencesSchema = z.object({
  items: z.array(z.object({ kind: kindSchema, inApp: z.boolean(), email: z.boolean() })),
  /** The language e-mails are written in: the one the person last read CM in. */
  emailLanguage: languageSchema,
  /** This install can send e-mail (a mail server is set up): without one, e-mail is never ticked. */
  emailAvailable: z.boolean(),
});
/** Alert preferences. */
export type AlertPreferences = z.infer<typeof alertPreferencesSchema>;

/** `PUT /api/alerts/preferences` body: the kinds to change. */
export const alertPreferencesBodySchema = z.object({
  items: z
    .array(z.object({ kind: kindSchema, inApp: z.boolean(), email: z.boolean() }))
    .min(1, 'items must name at least one kind.')
    .max(alertKinds.length)
    .refine(
      (items) => new Set(items.map((item) => item.kind)).size === items.length,
      'items: each kind at most once.',
    ),
});

/** `GET /api/admin/mail` answer: whether alert e-mails can go out, where through, and how they fare. */
export const mailSetupSchema = z.object({
  /** CM_SMTP_URL is set. */
  configured: z.boolean(),
  /** The mail server's host and port, never its credentials; null when not configured. */
  server: z.string().nullable(),
  /** The sender address (CM_SMTP_FROM); null when not configured. */
  from: z.string().nullable(),
  /** Alert e-mails waiting to be sent (or tried again), and those given up on. */
  pending: z.number().int(),
  failed: z.number().int(),
  /** The mail server's latest refusal, if any. */
  lastError: z.string().nullable(),
});
/** The mail set-up as an administrator sees it. */
export type MailSetup = z.infer<typeof mailSetupSchema>;

// ---- Webhooks ----

/** `POST /api/admin/webhooks` body: where to POST alert events. */
export const webhookBodySchema = z.object({
  url: z
    .string({ message: 'url is required.' })
    .trim()
    .max(2000, 'url is at most 2000 characters.')
    .url('url must be an http:// or https:// address.')
    .refine((url) => /^https?:\/\//i.test(url), 'url must be an http:// or https:// address.')
    .refine((url) => !/^https?:\/\/[^/]*@/i.test(url), 'url must not hold a user name or password.'),
});

/** A webhook as administrators see it (its secret is shown once, when created). */
export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  createdAt: z.string(),
  delivered: z.number().int(),
  pending: z.number().int(),
  failed: z.number().int(),
});
/** A webhook. */
export type Webhook = z.infer<typeof webhookSchema>;

/** `POST /api/admin/webhooks` answer: the webhook and the secret its deliveries are signed with. */
export const createdWebhookSchema = z.object({ webhook: webhookSchema, secret: z.string() });

/** One delivery of an event to a webhook. */
export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  event: z.enum(['alert.fired', 'alert.cleared']),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  /** The endpoint's last answer (`HTTP 200`) or why it could not be reached. */
  lastResult: z.string().nullable(),
  createdAt: z.string(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
/** A webhook delivery. */
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** Tries before a delivery is given up, and the waits between them. */
export const WEBHOOK_BACKOFF_SECONDS = [60, 300, 1800, 7200, 43_200] as const;
