// Webhooks: every alert episode fired or cleared is POSTed as JSON to each endpoint, signed, and
// tried again with backoff until the endpoint answers 2xx (WEBHOOK_BACKOFF_SECONDS, then given up).
//
// Signature: `X-CM-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the
// webhook's secret>`; a receiver recomputes it and refuses an old `t` (replays).

import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_BACKOFF_SECONDS } from '@cm/contracts/alerts.ts';
import type { SqlRunner } from '../../db/client.ts';
import { outboundFailure, type OutboundPolicy } from '../../outbound.ts';
import { SecretBox } from '../../secrets.ts';
import type { AccessRecording } from '../access-log/index.ts';
import {
  claimDueDeliveries,
  findClearWebhookSecrets,
  recordAttempt,
  replaceWebhookSecret,
} from './webhooks.queries.ts';

/** Deliveries sent per run at most (the rest wait for the next). */
const DELIVERIES_PER_RUN = 200;
/** How long an endpoint may take to answer. */
const TIMEOUT_MS = 10_000;

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

/** The signature header of `body` sent at `unixSeconds`. */
export function webhookSignature(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
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
      const body = JSON.stringify({ id: delivery.id, event: delivery.event, ...delivery.payload });
      const sentAt = Math.floor(Date.now() / 1000);
      let result: string;
      let isOk = false;
      try {
        // Redirects are not followed: a 3xx is the endpoint's answer, and a failure.
        const status = await outbound.post(
          delivery.url,
          {
            'Content-Type': 'application/json',
            'User-Agent': 'CheckMeter-Webhooks/1',
            'X-CM-Event': delivery.event,
            'X-CM-Delivery': String(delivery.id),
            'X-CM-Signature': webhookSignature(secrets.open(delivery.secret, WEBHOOK_SECRET), sentAt, body),
          },
          body,
          TIMEOUT_MS,
        );
        isOk = status >= 200 && status < 300;
        result = `HTTP ${status}`;
      } catch (error) {
        result = outboundFailure(error, TIMEOUT_MS);
      }
      const tries = delivery.attempts + 1;
      const wait = WEBHOOK_BACKOFF_SECONDS[tries - 1];
      if (isOk) {
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
      await recordAttempt(db, delivery.id, {
        status: isOk ? 'delivered' : wait === undefined ? 'failed' : 'pending',
        result,
        nextAttemptAt: isOk || wait === undefined ? null : new Date(Date.now() + wait * 1000),
        at: new Date(),
      });
    }),
  );
  return delivered;
}
