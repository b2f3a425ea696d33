import { alertKinds, MAX_INBOX } from '@cm/contracts/alerts.ts';
import type {
  alertRuleBodySchema,
  OwnAlertRuleBody,
  AlertInbox,
  AlertPreferences,
  AlertRule,
  MailSetup,
  Webhook,
  WebhookDelivery,
} from '@cm/contracts/alerts.ts';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { badRequest, HttpError, notFound } from '../../http-error.ts';
import { AddressNotAllowed, OutboundPolicy } from '../../outbound.ts';
import { scopeOf, type Actor, type AuthContext } from '../access/index.ts';
import { recordAudit } from '../audit/index.ts';
import { userLanguage } from '../auth/index.ts';
import { AdminLocationsService, locationNames, deviceNames, findVisibleMeter } from '../directory/index.ts';
import {
  countOverdue,
  countUnread,
  deleteAlertRule,
  findAlertRules,
  findInbox,
  emailQueueState,
  findPreferences,
  insertAlertRule,
  markRead,
  updateOwnAlertRule,
  upsertPreferences,
  type AlertRuleRow,
} from './alerts.queries.ts';
import { evaluateAlerts, type BillsOf, type EvaluationResult } from './evaluate.ts';
import { deliverWebhooks, newWebhookSecret, WEBHOOK_SECRET } from './webhooks.ts';
import {
  deleteWebhook,
  findDeliveries,
  findWebhooks,
  insertWebhook,
  type WebhookRow,
} from './webhooks.queries.ts';
import type { Mailer } from './mailer.ts';
import { sendDueEmails } from './mail-queue.ts';
import type { SecretBox } from '../../secrets.ts';
import type { AccessRecording } from '../access-log/index.ts';

const ADMIN_SCOPE = { isAdmin: true, userId: 0 };
/** Most deliveries one answer lists. */
const MAX_DELIVERIES = 100;
/** How long shutdown waits for an e-mail being sent (the SMTP time-outs bound it too). */
const MAIL_STOP_WAIT_MS = 3_000;

function presentWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    createdAt: row.created_at.toISOString(),
    delivered: row.delivered,
    pending: row.pending,
    failed: row.failed,
  };
}

/** Alert rules (administrators), each person's inbox and preferences, and evaluation. */
export class AlertsService {
  private readonly locations: AdminLocationsService;
  private pending: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;
  private retries: NodeJS.Timeout | undefined;
  /** False with CM_ALERT_EVERY_SECONDS=0: rules are evaluated only when asked (POST …/alerts/evaluate). */
  private automatic = true;
  private running: Promise<unknown> = Promise.resolve();
  private mailing: Promise<void> | undefined;
  private mailAgain = false;
  private stopping = false;

  constructor(
    private readonly db: Db,
    /** Seals webhook secrets for storage and opens them to sign. */
    private readonly secrets: SecretBox,
    private readonly mailer: Mailer | null,
    private readonly log: { warn: (object: object, message: string) => void } = { warn: () => {} },
    /** Bills to date for billAbove rules (the check service's). */
    private readonly billsOf?: BillsOf,
    /** Where webhooks may be sent (CM_OUTBOUND_ALLOW_CIDRS). */
    private readonly outbound: OutboundPolicy = new OutboundPolicy(),
    /** Where each webhook delivered is logged ("Who read my data"). */
    private readonly access?: AccessRecording,
  ) {
    this.locations = new AdminLocationsService(db);
  }

  async rules(locationId?: number): Promise<AlertRule[]> {
    return this.present(await findAlertRules(this.db, locationId, null));
  }

  async addRule(actor: Actor, body: z.output<typeof alertRuleBodySchema>): Promise<AlertRule> {
    const location = await this.locations.get(body.locationId);
    let meterId: number | null = null;
    if (body.meterNumber !== null) {
      const meter = await findVisibleMeter(this.db, body.meterNumber, ADMIN_SCOPE);
      if (!meter || meter.location.id !== location.id || meter.removedAt !== null)
        throw new HttpError(
          400,
          `meterNumber: ${location.publicName} has no meter ${body.meterNumber} installed now.`,
          'meterNumber',
        );
      meterId = meter.id;
    }
    const id = await this.db.transaction(async (tx) => {
      const ruleId = await insertAlertRule(tx, {
        locationId: location.id,
        meterId,
        kind: body.kind,
        threshold: body.kind === 'registerDecrease' ? null : body.threshold,
      });
      await recordAudit(tx, actor, {
        action: 'alert-rule.create',
        targetType: 'location',
        targetId: location.id,
        detail: { ruleId, ...body },
      });
      return ruleId;
    });
    const [rule] = (await this.rules(location.id)).filter((candidate) => candidate.id === id);
    if (!rule) throw notFound('Alert rule not found.');
    // A new rule says at once whether it holds.
    this.soon(500);
    return rule;
  }

  async removeRule(actor: Actor, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rule = await deleteAlertRule(tx, id);
      if (!rule) throw notFound('Alert rule not found.');
      await recordAudit(tx, actor, {
        action: 'alert-rule.delete',
        targetType: 'location',
        targetId: rule.location_id,
        detail: { ruleId: id, kind: rule.kind },
      });
    });
  }

  /** The caller's own rules (issue 34): a customer's budget and high-use alerts, theirs alone. */
  async ownRules(caller: AuthContext): Promise<AlertRule[]> {
    return this.present(await findAlertRules(this.db, undefined, caller.user.id));
  }

  /** A rule of the caller's own on one meter they can see now (404 for any other, as a missing one). */
  async addOwnRule(caller: AuthContext, body: OwnAlertRuleBody): Promise<AlertRule> {
    const meter = await findVisibleMeter(this.db, body.meterNumber, scopeOf(caller));
    if (!meter || meter.removedAt !== null) throw notFound('Meter not found.');
    const id = await insertAlertRule(this.db, {
      locationId: meter.location.id,
      meterId: meter.id,
      kind: body.kind,
      threshold: body.threshold,
      ownerId: caller.user.id,
    });
    // A new rule says at once whether it holds.
    this.soon(500);
    return this.ownRule(caller, id);
  }

  /** A new threshold for one of the caller's own rules. */
  async updateOwnRule(caller: AuthContext, id: number, threshold: number): Promise<AlertRule> {
    if (!(await updateOwnAlertRule(this.db, id, caller.user.id, threshold)))
      throw notFound('Alert rule not found.');
    this.soon(500);
    return this.ownRule(caller, id);
  }

  /** Removes one of the caller's own rules (its episodes and notifications go with it). */
  async removeOwnRule(caller: AuthContext, id: number): Promise<void> {
    if (!(await deleteAlertRule(this.db, id, caller.user.id))) throw notFound('Alert rule not found.');
  }

  private async ownRule(caller: AuthContext, id: number): Promise<AlertRule> {
    const [rule] = (await this.ownRules(caller)).filter((candidate) => candidate.id === id);
    if (!rule) throw notFound('Alert rule not found.');
    return rule;
  }

  async inbox(caller: AuthContext): Promise<AlertInbox> {
    const [rows, unread] = await Promise.all([
      findInbox(this.db, caller.user.id, MAX_INBOX),
      countUnread(this.db, caller.user.id),
    ]);
    return {
      unread,
      items: rows.map((row) => ({
        id: row.id,
        event: row.event,
        createdAt: row.created_at.toISOString(),
        readAt: row.read_at?.toISOString() ?? null,
        alert: {
          id: row.episode_id,
          kind: row.kind,
          threshold: row.threshold,
          meterNumber: row.meter_number,
          locationName: row.location_name,
          timeZone: row.time_zone,
          startedAt: row.started_at.toISOString(),
          clearedAt: row.cleared_at?.toISOString() ?? null,
          detail: row.detail,
        },
      })),
    };
  }

  async markRead(caller: AuthContext, ids: readonly number[] | undefined): Promise<AlertInbox> {
    await markRead(this.db, caller.user.id, ids ?? null);
    return this.inbox(caller);
  }

  async preferences(caller: AuthContext): Promise<AlertPreferences> {
    const rows = await findPreferences(this.db, [caller.user.id]);
    const chosen = new Map(rows.map((row) => [row.kind, row]));
    return {
      items: alertKinds.map((kind) => ({
        kind,
        inApp: chosen.get(kind)?.in_app ?? true,
        email: chosen.get(kind)?.email ?? this.mailer !== null,
      })),
      emailLanguage: await userLanguage(this.db, caller.user.id),
      emailAvailable: this.mailer !== null,
    };
  }

  /** Whether alert e-mails can go out, through which server, and how the queue fares (administrators). */
  async mailSetup(): Promise<MailSetup> {
    const queue = await emailQueueState(this.db);
    return {
      configured: this.mailer !== null,
      server: this.mailer?.about?.server ?? null,
      from: this.mailer?.about?.from ?? null,
      ...queue,
    };
  }

  async setPreferences(caller: AuthContext, items: AlertPreferences['items']): Promise<AlertPreferences> {
    await upsertPreferences(this.db, caller.user.id, items);
    return this.preferences(caller);
  }

  async webhooks(): Promise<Webhook[]> {
    return (await findWebhooks(this.db)).map(presentWebhook);
  }

  /** A new webhook and its secret, shown this once. */
  async addWebhook(actor: Actor, url: string): Promise<{ webhook: Webhook; secret: string }> {
    // Told at once; every delivery checks the address again as it connects (names may change).
    await this.outbound.check(url).catch((error: unknown) => {
      if (!(error instanceof AddressNotAllowed)) throw error;
      throw badRequest(
        'url: this address is loopback, private, link-local or Check Meter’s own, where webhooks are not sent. An administrator of the server may allow a network with CM_OUTBOUND_ALLOW_CIDRS.',
        'url',
      );
    });
    const secret = newWebhookSecret();
    const id = await this.db.transaction(async (tx) => {
      const webhookId = await insertWebhook(tx, url, this.secrets.seal(secret, WEBHOOK_SECRET));
      await recordAudit(tx, actor, {
        action: 'webhook.create',
        targetType: 'webhook',
        targetId: webhookId,
        detail: { url },
      });
      return webhookId;
    });
    const webhook = (await this.webhooks()).find((candidate) => candidate.id === id);
    if (!webhook) throw notFound('Webhook not found.');
    return { webhook, secret };
  }

  async removeWebhook(actor: Actor, id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await deleteWebhook(tx, id))) throw notFound('Webhook not found.');
      await recordAudit(tx, actor, { action: 'webhook.delete', targetType: 'webhook', targetId: id });
    });
  }

  /** A webhook's latest deliveries, newest first. */
  async deliveries(id: number): Promise<WebhookDelivery[]> {
    if (!(await findWebhooks(this.db)).some((webhook) => webhook.id === id))
      throw notFound('Webhook not found.');
    const rows = await findDeliveries(this.db, id, MAX_DELIVERIES);
    return rows.map((row) => ({
      id: row.id,
      event: row.event === 'alert.cleared' ? 'alert.cleared' : 'alert.fired',
      status: row.status === 'delivered' ? 'delivered' : row.status === 'failed' ? 'failed' : 'pending',
      attempts: row.attempts,
      lastResult: row.last_result,
      createdAt: row.created_at.toISOString(),
      nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
      deliveredAt: row.delivered_at?.toISOString() ?? null,
    }));
  }

  /**
   * E-mails and webhook deliveries due more than `lateMs` ago and still not tried (e-mails only
   * when a mail server is configured: without one they are not sent at all).
   */
  async overdue(lateMs: number, nowMs = Date.now()): Promise<{ emails: number; webhooks: number }> {
    const counts = await countOverdue(this.db, new Date(nowMs - lateMs));
    return { emails: this.mailer ? counts.emails : 0, webhooks: counts.webhooks };
  }

  /** Sends the webhook deliveries due now. */
  deliver(nowMs = Date.now()): Promise<number> {
    return deliverWebhooks(this.db, this.secrets, nowMs, this.outbound, this.access);
  }

  /** Evaluates now (after the one running, if any), then sends what it queued for webhooks. */
  evaluate(nowMs = Date.now()): Promise<EvaluationResult> {
    const next = this.running.then(async () => {
      const result = await evaluateAlerts(this.db, nowMs, this.billsOf, this.mailer !== null);
      this.mailSoon();
      await this.deliver();
      return { ...result, emailed: this.mailer ? result.emailed : 0 };
    });
    this.running = next.catch(() => undefined);
    return next;
  }

  /**
   * Sends the e-mails due in the background, apart from evaluations: one run at a time, and once
   * more after it when asked again meanwhile.
   */
  mailSoon(): void {
    const mailer = this.mailer;
    if (!mailer || this.stopping) return;
    if (this.mailing) {
      this.mailAgain = true;
      return;
    }
    this.mailing = (async () => {
      do {
        this.mailAgain = false;
        await sendDueEmails(this.db, mailer, Date.now(), () => this.stopping).catch((error: unknown) =>
          this.log.warn({ err: error }, 'alerts: e-mails failed'),
        );
      } while (this.mailAgain && !this.stopping);
      this.mailing = undefined;
    })();
  }

  /** Evaluates a moment from now: after an import or a device batch (several in a row, once). */
  soon(delayMs = 2_000): void {
    if (this.pending || !this.automatic) return;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.evaluate().catch((error: unknown) => this.log.warn({ err: error }, 'alerts: evaluation failed'));
    }, delayMs);
    this.pending.unref();
  }

  /**
   * Evaluates a few seconds after start, then every `everySeconds` (0: never by itself, only when
   * asked); webhook and e-mail retries every minute.
   */
  start(everySeconds: number): void {
    this.automatic = everySeconds > 0;
    if (this.automatic) {
      this.soon(5_000);
      this.timer = setInterval(() => this.soon(0), everySeconds * 1000);
      this.timer.unref();
    }
    this.retries = setInterval(() => {
      this.mailSoon();
      void this.deliver().catch((error: unknown) => this.log.warn({ err: error }, 'alerts: webhooks failed'));
    }, 60_000);
    this.retries.unref();
  }

  /** Stops the timers; waits for the evaluation running, and for an e-mail being sent a few seconds at most. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    if (this.retries) clearInterval(this.retries);
    if (this.pending) clearTimeout(this.pending);
    this.pending = undefined;
    await this.running;
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([
      this.mailing,
      new Promise((resolve) => (waited = setTimeout(resolve, MAIL_STOP_WAIT_MS))),
    ]);
    clearTimeout(waited);
  }

  private async present(rows: AlertRuleRow[]): Promise<AlertRule[]> {
    const [places, meters] = await Promise.all([
      locationNames(this.db, [...new Set(rows.map((row) => row.location_id))]),
      deviceNames(
        this.db,
        rows.flatMap((row) => (row.meter_id === null ? [] : [row.meter_id])),
      ),
    ]);
    const placeOf = new Map(places.map((item) => [item.id, item.name]));
    const meterOf = new Map(meters.map((item) => [item.id, item.name]));
    return rows.map((row) => ({
      id: row.id,
      locationId: row.location_id,
      locationName: placeOf.get(row.location_id) ?? '',
      meterNumber: row.meter_id === null ? null : (meterOf.get(row.meter_id) ?? null),
      kind: row.kind,
      threshold: row.threshold,
      createdAt: row.created_at.toISOString(),
      openEpisodes: row.open_episodes,
    }));
  }
}
