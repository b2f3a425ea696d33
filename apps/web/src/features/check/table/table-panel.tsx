import { Button, Group, NativeSelect, Skeleton, Text, Title } from '@mantine/core';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import type { LocationReadings } from '@cm/contracts/check.ts';
import { lazy, memo, startTransition, Suspense, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { defaultCsvFormat, type CsvCharge, type CsvFormat } from './csv.ts';
import { billCurrency } from '../model/bill.ts';
import { answerRange } from '../model/date-range.ts';
import { PRODUCT_NAME } from '@/lib/config.ts';
import { formatDateRange, formatLocal, formatUtcOffset } from '../model/local-format.ts';
import { rowsInSlices, rowsOf, type ReadingRows } from '../model/reading-rows.ts';
import type { TableBlock } from './readings-table.tsx';
import { moduleLoader } from '@/lib/module-loader.ts';
import { SectionPanel } from '../ui/section-panel.tsx';
import { DownloadMyData } from './download-my-data.tsx';
import classes from '../check.module.css';

const tableCode = moduleLoader(() => import('./readings-table.tsx'));

/** Starts loading the table's code; the page calls it as it asks for readings, so both arrive together. */
export function preloadReadingsTable(): void {
  void tableCode.preload();
}

const PrintView = lazy(() => import('./print-view.tsx').then((module) => ({ default: module.PrintView })));

/** Each meter's rows with its indicator, as the table, the CSV and the print view take them. */
function blocksOf(readings: LocationReadings, rows: ReadingRows[]): TableBlock[] {
  return rows.map((meterRows, b) => ({ meterInd: readings.meters[b]?.meterInd ?? 0, rows: meterRows }));
}

/** Each meter's demand and capacity charges over the answer's range, for the CSV's charge lines. */
function chargesOf(readings: LocationReadings): CsvCharge[] {
  const fromMs = Date.parse(readings.from);
  const toMs = Date.parse(readings.to);
  return readings.meters.flatMap(({ meterInd, meter, bill }) => {
    if (!bill) return [];
    const line = (kind: CsvCharge['kind'], amount: number) =>
      amount > 0 ? [{ meterInd, meterNumber: meter.meterNumber, kind, fromMs, toMs, amount }] : [];
    return [...line('demandCharge', bill.demandCharge), ...line('capacityCharge', bill.capacityCharge)];
  });
}

/** The answer's table blocks once built a slice per task (rowsInSlices); null until then. */
function useBlocksInSlices(readings: LocationReadings): TableBlock[] | null {
  const [built, setBuilt] = useState<{ readings: LocationReadings; blocks: TableBlock[] } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    void rowsInSlices(readings, controller.signal).then((rows) => {
      // The table mounts at a transition's priority: rendered in slices, not one long task.
      if (rows) startTransition(() => setBuilt({ readings, blocks: blocksOf(readings, rows) }));
    });
    return () => controller.abort();
  }, [readings]);
  return built?.readings === readings ? built.blocks : null;
}

interface TablePanelProps {
  readings: LocationReadings;
  id: string;
  /** Meter number or location name, for the CSV file name and the print title. */
  subject: string;
}

/**
 * The readings table with CSV export and the print view. It builds the rows (35k for a year of
 * readings) that the chart's tooltip and the CSV reuse, a slice per task after the section has
 * rendered it (after the chart has drawn), and shows the table once they are all there.
 */
export const TablePanel = memo(function TablePanel({ readings, id, subject }: TablePanelProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const tz = readings.location.timeZone;
  const unit = readings.meters[0]?.meter.unit ?? 'kWh';
  const currency = billCurrency(readings);
  const range = answerRange(readings);
  // When the print view was asked for (its pages say when they were printed); null: not printing.
  const [printedAt, setPrintedAt] = useState<number | null>(null);
  const isPrinting = printedAt !== null;
  const blocks = useBlocksInSlices(readings);
  // One meter's view: its own data can be downloaded as Green Button too.
  const single = readings.meters.length === 1 ? readings.meters[0] : undefined;
  const table = tableCode.useModule(true);

  // The browser's own print command gets the print view too.
  useEffect(() => {
    const before = () => flushSync(() => setPrintedAt(Date.now()));
    const after = () => setPrintedAt(null);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);

  async function handleExport(format: CsvFormat): Promise<string> {
    const { downloadCsv } = await import('./export-csv.ts');
    return downloadCsv(
      {
        blocks: blocks ?? blocksOf(readings, rowsOf(readings)),
        charges: chargesOf(readings),
        granularity: readings.granularity,
        timeZone: tz,
        unit,
        currency,
        subject,
        from: range.from,
        to: range.to,
        format,
      },
      t,
    );
  }

  function handlePrint() {
    flushSync(() => setPrintedAt(Date.now()));
    window.print();
  }

  const printRows = isPrinting && readings.meters.length === 1 ? rowsOf(readings)[0] : undefined;
  return (
    <>
      <SectionPanel labelledBy="cm-table-title" noPrint>
        <TableToolbar
          timeZone={tz}
          single={single}
          range={range}
          onExport={handleExport}
          onPrint={handlePrint}
        />
        <div className={classes.noPrint}>
          {blocks && table ? (
            <table.ReadingsTable
              id={id}
              blocks={blocks}
              granularity={readings.granularity}
              timeZone={tz}
              unit={unit}
              currency={currency}
            />
          ) : (
            <Skeleton height={320} />
          )}
        </div>
      </SectionPanel>
      {printRows ? (
        <Suspense fallback={null}>
          <PrintView
            title={subject}
            subtitle={t('check.print.subtitle', {
              location: readings.location.publicName,
              range: formatDateRange(range.from, range.to, locale),
              timeZone: tz,
            })}
            printed={t('check.print.printed', {
              product: PRODUCT_NAME,
              at: `${formatLocal(printedAt ?? 0, locale, tz)} (${formatUtcOffset(printedAt ?? 0, tz)})`,
            })}
            rows={printRows}
            granularity={readings.granularity}
            timeZone={tz}
            unit={unit}
            currency={currency}
          />
        </Suspense>
      ) : null}
    </>
  );
});

interface TableToolbarProps {
  timeZone: string;
  /** One meter's view: its own data can be downloaded as Green Button too. */
  single: LocationReadings['meters'][number] | undefined;
  range: { from: string; to: string };
  /** Writes the CSV in the format chosen; its file's name. */
  onExport: (format: CsvFormat) => Promise<string>;
  onPrint: () => void;
}

/** The table's title and its tools: the CSV's format and download, Green Button, print. */
function TableToolbar({ timeZone, single, range, onExport, onPrint }: TableToolbarProps) {
  const { t, i18n } = useTranslation();
  const [csvChoice, setCsvFormat] = useState<CsvFormat | null>(null);
  const csvFormat = csvChoice ?? defaultCsvFormat(i18n.language);
  const [exported, setExported] = useState<string | null>(null);

  async function handleExport() {
    setExported(await onExport(csvFormat));
  }

  return (
    <>
      <Group justify="space-between" align="flex-end" mb="sm" gap="sm" className={classes.noPrint}>
        <div>
          <Title order={2} size="h4" id="cm-table-title">
            {t('check.table.title')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('check.table.inZone', { timeZone })}
          </Text>
        </div>
        <Group gap="xs" align="flex-end" wrap="wrap">
          <NativeSelect
            size="xs"
            label={t('check.csv.format')}
            value={`${csvFormat.separator}${csvFormat.decimal}`}
            onChange={(event) =>
              setCsvFormat(
                event.currentTarget.value === ';,'
                  ? { separator: ';', decimal: ',' }
                  : { separator: ',', decimal: '.' },
              )
            }
            data={[
              { value: ',.', label: t('check.csv.formatComma') },
              { value: ';,', label: t('check.csv.formatSemicolon') },
            ]}
          />
          <Button
            size="xs"
            leftSection={<IconDownload size={14} aria-hidden />}
            onClick={() => void handleExport()}
            data-testid="export-csv"
          >
            {t('check.csv.export')}
          </Button>
          {single ? (
            <DownloadMyData
              meterNumbers={single.meterNumbers}
              from={range.from}
              to={range.to}
              onSaved={setExported}
            />
          ) : null}
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPrinter size={14} aria-hidden />}
            onClick={onPrint}
          >
            {t('check.print.button')}
          </Button>
        </Group>
      </Group>
      {exported ? (
        <Text size="xs" c="dimmed" role="status" className={classes.noPrint}>
          {t('check.csv.done', { filename: exported })}
        </Text>
      ) : null}
    </>
  );
}
