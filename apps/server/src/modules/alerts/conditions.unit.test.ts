import { describe, expect, it } from 'vitest';
import type { DayAsk, DayRow } from '../readings/readings.service.ts';
import { dayEnergy, type WatchedMeter } from './conditions.ts';

const meter: WatchedMeter = {
  id: 7,
  meterNumber: 'M-7',
  locationId: 1,
  locationName: 'North Pier',
  timeZone: 'Europe/Brussels',
  billingDay: null,
  multiplier: 1,
  registerDigits: 6,
  intervalMinutes: 15,
  installedAt: new Date('2025-01-01T00:00:00Z'),
  lastDataAt: null,
  cubeLastSeen: null,
  hasCube: false,
  accessPointLastSeen: null,
  hasAccessPoint: false,
};

// 2026-11-26 in Brussels (UTC+1): 2026-11-25T23:00Z to 2026-11-26T23:00Z.
const day: DayAsk = {
  meterId: 7,
  start: new Date('2026-11-25T23:00:00Z'),
  end: new Date('2026-11-26T23:00:00Z'),
  slot: 0,
};
const registers = (startKwh: number, endKwh: number): DayRow => ({
  meter_id: 7,
  slot: 0,
  start_micro: startKwh * 1_000_000,
  start_at: day.start,
  end_micro: endKwh * 1_000_000,
  end_at: day.end,
  record_micro: null,
  records: 0,
});

describe('dayEnergy', () => {
  it('gives no energy for a register that went down 5 kWh (a fault, not a rollover)', () => {
    // 6 digits: the register wraps at 1,000,000 kWh. 100,000 → 99,995 is a fall of 5 kWh, far
    // less than half the range (500,000 kWh): an implausible decrease, whose energy the readings
    // engine leaves unknown. Read as a rollover it would be 1,000,000 − 5 = 999,995 kWh.
    expect(dayEnergy(meter, day, registers(100_000, 99_995))).toBeNull();
  });
});
