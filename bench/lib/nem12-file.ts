// A NEM12 file (AEMO MDFF) as a retailer sends it, for the ingest benchmark: a 100 header, per NMI
// a 200 record (NMI, suffix E1, kWh, the interval length) and one 300 record a day with every
// interval's energy and quality A, then 900. Values are deterministic, with three decimals.

export interface Nem12Stream {
  nmi: string;
  intervalMinutes: number;
  days: number;
}

const DAY_MS = 86_400_000;
const yyyymmdd = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');

/** The file's text and what it holds: intervals in all, and the energy in Wh (an integer, exact). */
export function nem12File(
  streams: readonly Nem12Stream[],
  firstDay: string,
): {
  text: string;
  intervals: number;
  totalWh: number;
} {
  const start = Date.parse(`${firstDay}T00:00:00Z`);
  const lines = ['100,NEM12,202601010000,BENCHMDP,BENCHRETAILER'];
  let intervals = 0;
  let totalWh = 0;
  for (const [s, stream] of streams.entries()) {
    const perDay = (24 * 60) / stream.intervalMinutes;
    lines.push(
      `200,${stream.nmi},E1,1,E1,N1,BENCH${String(s).padStart(5, '0')},kWh,${stream.intervalMinutes},${yyyymmdd(start + stream.days * DAY_MS)}`,
    );
    for (let d = 0; d < stream.days; d += 1) {
      const values: string[] = [];
      for (let i = 0; i < perDay; i += 1) {
        const wh = 20 + ((d * 7919 + i * 104_729 + s * 31) % 480);
        totalWh += wh;
        values.push((wh / 1000).toFixed(3));
      }
      intervals += perDay;
      lines.push(
        `300,${yyyymmdd(start + d * DAY_MS)},${values.join(',')},A,,,${yyyymmdd(start + (d + 1) * DAY_MS)}010000,`,
      );
    }
  }
  lines.push('900');
  return { text: `${lines.join('\r\n')}\r\n`, intervals, totalWh };
}
