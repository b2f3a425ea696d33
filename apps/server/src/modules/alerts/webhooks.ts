// Webhooks: every alert episode fired or cleared is POSTed as JSON to each endpoint, signed with
// the webhook's secret, and tried again with backoff until the endpoint answers 2xx (signing and
// retries: signed-delivery.ts, shared with the ESPI notifications of connected apps).

import { randomBytes } from 'node:crypto';
import type { SqlRunner } from '../../db/client.ts';
import type { OutboundPolicy } from '../../outbound.ts';
import { SecretBox } from '../../secrets.ts';
import { sendSigned } from '../../signed-delivery.ts';
import type { AccessRecording } from '../access-log/index.ts';
import {
  claimDueDeliveries,
  findClearWebhookSecrets,
  recordAttempt,
  replaceWebhookSecret,
} from './webhooks.queries.ts';

/** Deliveries sent per run at most (the rest wait for the next). */
const DELIVERIES_PER_RUN = 200;

/** A new webhook secret: 32 random bytes, hex. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('hex')}`;

/** What a webhook's secret is sealed as (secrets.ts): it is stored encrypted. */
export const WEBHOOK_SECRET = 'webhooks.secret';

/** Start-up: seals the webhook secrets an earlier version stored in clear (sealed ones are left). */
export async function sealWebhookSecrets(db: SqlRunner, secrets: SecretBox): Promise<void> {
  for (const { id, secret } of await findClearWebhookSecrets(db, SecretBox.prefix)) {
    await replaceWebhookSecret(db, id, secret, secrets.seal(secret, WEBHOOK_SECRET));
  }
}

/** A webhook as the access log names it: its host. */
function webhookName(url: string): string {
  try {
    return `webhook ${new URL(url).host}`;
  } catch {
    return 'webhook';
  }
}

/**
 * Sends the deliveries due now, signed with each webhook's secret (kept sealed in `secrets`), only
 * to addresses `outbound` allows (checked as each connects); returns how many the endpoints accepted.
 * Each one accepted is logged in its meter's "Who read my data" (`access`).
 */
export async function deliverWebhooks(
  db: SqlRunner,
  secrets: SecretBox,
  nowMs: number,
  outbound: OutboundPolicy,
  access?: AccessRecording,
): Promise<number> {
  const due = await claimDueDeliveries(db, new Date(nowMs), DELIVERIES_PER_RUN);
  let delivered = 0;
  await Promise.all(
    due.map(async (delivery) => {
      const outcome = await sendSigned(outbound, {
        url: delivery.url,
        key: secrets.open(delivery.secret, WEBHOOK_SECRET),
        body: JSON.stringify({ id: delivery.id, event: delivery.event, ...delivery.payload }),
        contentType: 'application/json',
        userAgent: 'CheckMeter-Webhooks/1',
        headers: { 'X-CM-Event': delivery.event, 'X-CM-Delivery': String(delivery.id) },
        attempts: delivery.attempts,
      });
      if (outcome.isOk) {
        delivered++;
        if (delivery.meter_id !== null)
          await access?.record({
            meterIds: [delivery.meter_id],
            reader: { channel: 'webhook', name: webhookName(delivery.url), userId: null, apiKeyId: null },
            data: ['alerts'],
            fromMs: null,
            toMs: null,
            what: delivery.event,
          });
      }
      await recordAttempt(db, delivery.id, { ...outcome, at: new Date() });
    }),
  );
  return delivered;
}
