import type { Readable } from 'node:stream';
import type Provider from 'oidc-provider';
import type { Bill } from '@cm/contracts/check.ts';
import type { ConnectDataKind } from '@cm/contracts/connect.ts';
import type { Db } from '../../db/client.ts';
import { HttpError, notFound } from '../../http-error.ts';
import type { AccessRecording } from '../access-log/index.ts';
import { findExportMeter, type ExportMeter } from '../directory/index.ts';
import type { ExportsService, UsageSummaryFacts } from '../exports/index.ts';
import {
  customerSeesMeter,
  findGrantByOidcId,
  findMeterNumbers,
  type GrantRow,
} from './connect-grants.queries.ts';
import { ESPI_RESOURCE } from './oauth-provider.ts';

/** 401 with the RFC 6750 challenge: the token is missing, expired, or its grant has ended. */
export class InvalidTokenError extends HttpError {
  constructor(message: string) {
    super(401, message);
  }
}

const NOT_IN_GRANT = 'Not found in this subscription.';

/** What was asked of the resource API: a part of the grant's feed, over an optional range. */
export interface EspiAsk {
  subscriptionId: number;
  usagePointId?: number;
  part: 'all' | 'usage-point' | 'meter-readings' | 'usage-summary' | { blocksOf: number };
  /** published-min/max or updated-min/max, epoch ms; the grant's dates bound them. */
  minMs?: number;
  maxMs?: number;
  selfHref: string;
  /** The call, for the access log (`Batch/Subscription`, `IntervalBlock`…). */
  what: string;
}

/**
 * The bill of a customer's meter over [fromMs, toMs] at its location's tariffs, with the energy
 * imported (millionths of a kWh); null without a tariff (the check module's meterCost, handed by
 * app.ts).
 */
export type MeterCostOf = (
  userId: number,
  meterNumber: string,
  fromMs: number,
  toMs: number,
) => Promise<{ bill: Bill; importMicro: number | null } | null>;

/**
 * The ESPI resource API of Connect My Data: a grant's bearer token reads the same feed as Download
 * My Data, of the granted meters (still the customer's), from the grant's first day to its end
 * (and not after now), only the kinds granted. Every call checks the token and the grant afresh,
 * so a revoked grant's next call answers 401; every read is in the meter's access log as the app's.
 */
export class EspiApiService {
  constructor(
    private readonly db: Db,
    private readonly provider: Provider,
    private readonly exports: ExportsService,
    private readonly access: AccessRecording,
    private readonly costOf: MeterCostOf,
  ) {}

  /** The live grant of a bearer token, or InvalidTokenError. */
  async grantOf(token: string | undefined): Promise<GrantRow> {
    if (!token) throw new InvalidTokenError("Send a grant's access token: Authorization: Bearer <token>.");
    const accessToken = token.length <= 200 ? await this.provider.AccessToken.find(token) : undefined;
    if (!accessToken || accessToken.isExpired || accessToken.aud !== ESPI_RESOURCE || !accessToken.grantId)
      throw new InvalidTokenError('The access token is not valid or has expired.');
    const grant = await findGrantByOidcId(this.db, accessToken.grantId);
    if (!grant || grant.revoked_at || grant.until.getTime() <= Date.now() || grant.app_status !== 'active')
      throw new InvalidTokenError('The grant of this access token has ended.');
    return grant;
  }

  async read(grant: GrantRow, ask: EspiAsk): Promise<Readable> {
    if (ask.subscriptionId !== grant.id) throw notFound(NOT_IN_GRANT);
    const meterIds =
      ask.usagePointId === undefined
        ? grant.meter_ids
        : grant.meter_ids.filter((id) => id === ask.usagePointId);
    if (meterIds.length === 0) throw notFound(NOT_IN_GRANT);
    // MeterReadings 1 and 3 are registers, 2 and 4 energies per interval (espi-writer.ts).
    const blocksKind =
      typeof ask.part === 'object' ? (ask.part.blocksOf % 2 === 1 ? 'registers' : 'intervals') : null;
    if (blocksKind && !grant.data_kinds.includes(blocksKind)) throw notFound(NOT_IN_GRANT);
    const kinds = new Set(grant.data_kinds);
    // UsageSummary is the cost: only for a grant of it, like the readings of a kind not granted.
    if (ask.part === 'usage-summary' && !kinds.has('cost')) throw notFound(NOT_IN_GRANT);
    const meters = await this.grantedMeters(grant, meterIds);
    if (ask.usagePointId !== undefined && meters.length === 0) throw notFound(NOT_IN_GRANT);
    const nowMs = Date.now();
    const fromMs = Math.max(grant.data_from.getTime(), ask.minMs ?? -Infinity);
    const toMs = Math.min(grant.until.getTime(), nowMs, ask.maxMs ?? Infinity);
    const withCost = kinds.has('cost') && (ask.part === 'all' || ask.part === 'usage-summary');
    const resource = {
      subscriptionId: grant.id,
      registers: kinds.has('registers'),
      intervals: kinds.has('intervals'),
      part: ask.part,
    };
    const data: ConnectDataKind[] = [];
    if (ask.part === 'usage-point') data.push('details');
    else if (blocksKind) data.push(blocksKind);
    else if (ask.part !== 'usage-summary')
      data.push(
        ...grant.data_kinds.filter(
          (kind): kind is 'registers' | 'intervals' => kind === 'registers' || kind === 'intervals',
        ),
      );
    if (withCost) data.push('cost');
    const hasRange = ask.part !== 'usage-point' && ask.part !== 'meter-readings';
    await this.access.record({
      meterIds: meters.map((meter) => meter.id),
      reader: { channel: 'app', name: grant.app_name, userId: null, apiKeyId: null },
      data,
      fromMs: hasRange ? fromMs : null,
      toMs: hasRange ? Math.max(fromMs, toMs) : null,
      what: `ESPI ${ask.what}`,
    });
    return this.exports.resourceFeed(
      `Subscription ${grant.id}`,
      ask.selfHref,
      await Promise.all(
        meters.map(async (meter) => ({
          meter,
          fromMs,
          toMs,
          resource: { ...resource, usagePointId: meter.id },
          ...(withCost ? { usageSummary: await this.usageSummary(grant, meter, fromMs, toMs, nowMs) } : {}),
        })),
      ),
    );
  }

  /** The cost of a granted meter over the range served, as its UsageSummary says it; none without a tariff. */
  private async usageSummary(
    grant: GrantRow,
    meter: ExportMeter,
    fromMs: number,
    toMs: number,
    nowMs: number,
  ): Promise<UsageSummaryFacts | null> {
    const cost = toMs > fromMs ? await this.costOf(grant.user_id, meter.meterNumber, fromMs, toMs) : null;
    if (!cost) return null;
    return {
      fromMs,
      toMs,
      total: cost.bill.total,
      currency: cost.bill.currency,
      importMicro: cost.importMicro,
      isEstimated: cost.bill.estimated > 0,
      isToDate: toMs >= nowMs,
      atMs: nowMs,
    };
  }

  /** The granted meters the customer still sees, in id order. */
  private async grantedMeters(grant: GrantRow, meterIds: number[]): Promise<ExportMeter[]> {
    const meters: ExportMeter[] = [];
    for (const { device_id: id, meter_number: number } of await findMeterNumbers(this.db, meterIds)) {
      if (!(await customerSeesMeter(this.db, grant.user_id, id))) continue;
      const meter = await findExportMeter(this.db, number);
      if (meter) meters.push(meter);
    }
    return meters;
  }
}
