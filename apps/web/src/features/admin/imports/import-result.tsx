import type { ImportReport } from '@cm/contracts/admin.ts';
import type { ImportJob } from '@cm/contracts/import-jobs.ts';
import { Alert, Anchor, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { readerTimeZone } from '@/lib/format.ts';
import type { PreviewMeters } from './import-machine.ts';
import { ImportReportView } from './report-view.tsx';

/** An ended job's report, with links to the known meters it stored readings of (the first five). */
export function ImportDone({
  job,
  report,
  meters,
  isCancelTooLate = false,
}: {
  job: ImportJob;
  report: ImportReport;
  meters: PreviewMeters;
  /** A cancel came after the job had stored everything: said above the report. */
  isCancelTooLate?: boolean;
}) {
  const { t } = useTranslation();
  const known = meters.filter((meter) => meter.known);
  return (
    <>
      {isCancelTooLate ? (
        <Alert color="yellow" variant="light" role="status" data-testid="import-cancel-late">
          {t('admin.import.cancelTooLate')}
        </Alert>
      ) : null}
      <ImportReportView
        report={report}
        fileName={job.fileName ?? ''}
        isStrict={job.source?.strict ?? false}
        zoneOf={(meterNumber) =>
          meters.find((meter) => meter.meterNumber === meterNumber)?.timeZone ?? readerTimeZone()
        }
        rejectedCsvUrl={report.rejectedCount > 0 ? `/api/admin/imports/jobs/${job.id}/rejected.csv` : null}
      />
      {report.committed && known.length > 0 ? (
        <Group gap="sm">
          {known.slice(0, 5).map((meter) => (
            <Anchor
              key={meter.meterNumber}
              component={Link}
              to={`/check?meter=${encodeURIComponent(meter.meterNumber)}`}
            >
              {t('admin.import.openMeter', { meter: meter.meterNumber })}
            </Anchor>
          ))}
        </Group>
      ) : null}
    </>
  );
}

/** A job that ended without a report: the server's reason when it gave one. */
export function ImportFailed({ job }: { job: ImportJob }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" role="alert" data-testid="import-failed">
      {job.error ?? t('admin.import.tone.refused')}
    </Alert>
  );
}
