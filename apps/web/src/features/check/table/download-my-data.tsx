import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFileDownload } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { downloadFile, dispositionName } from '@/lib/download-file.ts';

/** The two files Download My Data offers. */
type DataFormat = 'espi' | 'csv';

/** `GET /api/CheckMeter/DownloadMyData` for one meter and the local days on screen. */
function downloadUrl(meterNumber: string, from: string, to: string, format: DataFormat): string {
  const params = new URLSearchParams({ meterNumber, From: from, To: to, format });
  return `/api/CheckMeter/DownloadMyData?${params.toString()}`;
}

/**
 * Green Button's "Download My Data" (issue 17.10): the meter's data over the range on screen as
 * Green Button ESPI XML (per channel the registers and the energy of each interval, with the
 * location's time parameters) or as CSV, one row per stored reading of each channel. After an
 * exchange, each meter of the position has its own files.
 */
export function DownloadMyData({
  meterNumbers,
  from,
  to,
  onSaved,
}: {
  meterNumbers: string[];
  from: string;
  to: string;
  onSaved: (fileName: string) => void;
}) {
  const { t } = useTranslation();
  const [isBusy, setBusy] = useState(false);

  async function handleDownload(meterNumber: string, format: DataFormat) {
    setBusy(true);
    const fallback = `${meterNumber}-${from}-to-${to}.${format === 'espi' ? 'xml' : 'csv'}`;
    const result = await downloadFile(
      downloadUrl(meterNumber, from, to, format),
      fallback,
      undefined,
      (disposition) => dispositionName(disposition) ?? fallback,
    );
    setBusy(false);
    if (result.ok) onSaved(result.fileName);
    else toast.error(t('check.download.failed'), { id: 'download-my-data' });
  }

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconFileDownload size={14} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={isBusy}
          data-testid="download-my-data"
        >
          {t('check.download.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {meterNumbers.map((meterNumber) => (
          <Fragment key={meterNumber}>
            {meterNumbers.length > 1 ? <Menu.Label>{meterNumber}</Menu.Label> : null}
            <Menu.Item onClick={() => void handleDownload(meterNumber, 'espi')}>
              {t('check.download.espi', { meterNumber })}
            </Menu.Item>
            <Menu.Item onClick={() => void handleDownload(meterNumber, 'csv')}>
              {t('check.download.csv', { meterNumber })}
            </Menu.Item>
          </Fragment>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
