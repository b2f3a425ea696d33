// ESPI notifications (issue 37): after an import or a device batch adds readings to a meter of a
// live grant, the grant's app is told at its notification URI which batch to fetch: a POST of an
// espi:BatchList naming the grant's Batch/Subscription URI (NAESB REQ.21's notification). Signed
// and tried again as webhooks are (signed-delivery.ts), keyed with the SHA-256 (hex) of the app's
// client secret: the app has the secret, CM keeps only its hash.

import type { SqlRunner } from '../../db/client.ts';
import type { OutboundPolicy } from '../../outbound.ts';
import { sendSigned } from '../../signed-delivery.ts';
import {
  claimDueNotifications,
  dropNotification,
  queueNotifications,
  recordNotificationAttempt,
} from './espi-notifications.queries.ts';

/** Notifications sent per run at most (the rest wait for the next). */
const NOTIFICATIONS_PER_RUN = 200;

/** A grant's Batch/Subscription URI: what its token answer's resourceURI names too. */
const batchSubscriptionUri = (publicUrl: string, grantId: number) =>
  `${publicUrl}/espi/1_1/resource/Batch/Subscription/${grantId}`;

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

/** ESPI's notification body: the batch URIs to fetch, as an espi:BatchList. */
function batchList(uris: readonly string[]): string {
  const resources = uris.map((uri) => `<espi:resources>${escapeXml(uri)}</espi:resources>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<espi:BatchList xmlns:espi="http://naesb.org/espi">${resources}</espi:BatchList>\n`;
}

/**
 * Sends the notifications due now to their apps (only to addresses `outbound` allows); a grant
 * ended since its notification was queued gets none. Answers how many the apps accepted (2xx).
 */
export async function deliverNotifications(
  db: SqlRunner,
  publicUrl: string,
  outbound: OutboundPolicy,
  nowMs = Date.now(),
): Promise<number> {
  const due = await claimDueNotifications(db, new Date(nowMs), NOTIFICATIONS_PER_RUN);
  let delivered = 0;
  await Promise.all(
    due.map(async (notification) => {
      if (!notification.is_live || notification.notification_uri === null) {
        await dropNotification(db, notification.id, 'not sent: the grant has ended');
        return;
      }
      const outcome = await sendSigned(outbound, {
        url: notification.notification_uri,
        key: notification.secret_hash,
        body: batchList([batchSubscriptionUri(publicUrl, notification.grant_id)]),
        contentType: 'application/xml; charset=utf-8',
        userAgent: 'CheckMeter-ESPI/1',
        headers: { 'X-CM-Event': 'espi.notification', 'X-CM-Delivery': String(notification.id) },
        attempts: notification.attempts,
      });
      if (outcome.isOk) delivered++;
      await recordNotificationAttempt(db, notification.id, { ...outcome, at: new Date() });
    }),
  );
  return delivered;
}

/**
 * What imports and device batches tell (ReadingsAddedListener): the meters they added readings to,
 * inside their transaction (the notifications are queued with the readings, or not at all), then
 * that it committed (they are sent a moment later). Retries: `deliver` every minute (app.ts).
 */
export class EspiNotifier {
  private sending: Promise<unknown> | undefined;
  private again = false;
  private stopping = false;

  constructor(
    private readonly db: SqlRunner,
    private readonly publicUrl: string,
    private readonly outbound: OutboundPolicy,
    private readonly log: { warn: (detail: object, message: string) => void },
  ) {}

  async added(tx: SqlRunner, meterIds: readonly number[]): Promise<void> {
    await queueNotifications(tx, meterIds);
  }

  committed(): void {
    this.soon();
  }

  /** Sends the notifications due now; answers how many were accepted. */
  deliver(nowMs = Date.now()): Promise<number> {
    return deliverNotifications(this.db, this.publicUrl, this.outbound, nowMs);
  }

  /** Sends what is due in the background: one run at a time, and once more after it when asked meanwhile. */
  private soon(): void {
    if (this.stopping) return;
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = (async () => {
      do {
        this.again = false;
        await this.deliver().catch((error: unknown) =>
          this.log.warn({ err: error }, 'connect: ESPI notifications failed'),
        );
      } while (this.again && !this.stopping);
      this.sending = undefined;
    })();
  }

  /** Waits for the run in progress, if any. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.sending;
  }
}
