import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { IconArrowRight } from '@tabler/icons-react';
import type { ChainDevice, DeviceHealth, MeterInfo } from '@cm/contracts/check.ts';
import { DeviceType } from '@cm/contracts/enums.ts';
import { itemSuggestionId, itemSuggestionLink, meterSubtitle } from '@cm/contracts/suggestion-ids.ts';
import { Fragment, memo } from 'react';
import { useTranslation } from 'react-i18next';
import { BookmarkToggle } from '@/components/bookmark-toggle.tsx';
import { devicePriorityLabels, deviceStatusLabels, toPriorityId } from '@/components/device-status.ts';
import { useIsBookmarked } from '@/lib/bookmarks-api.ts';
import { formatEnergy, formatNumber, formatRelative } from '@/lib/format.ts';
import { formatIsoInZone, formatUtcOffset } from '../model/local-format.ts';
import { formatRegister } from '../totals/totals.ts';
import { exchangeNeighbours } from './exchanges.ts';
import { MeterNickname } from './meter-nickname.tsx';
import { ToneBadge, type Tone } from '@/components/tone-badge.tsx';
import { SectionPanel } from '../ui/section-panel.tsx';
import classes from '../check.module.css';

/** Badge colours by meaning: green works, yellow needs a look, red is broken, grey is out of service. */
const healthTones: Record<DeviceHealth, Tone> = {
  ok: 'green',
  late: 'yellow',
  silent: 'red',
  unknown: 'gray',
  removed: 'gray',
};

/** Translation key names of device types (the contract's numbers, spec §3). */
const deviceTypeKeys = new Map<number, string>([
  [DeviceType.AccessPoint, 'accessPoint'],
  [DeviceType.Cube, 'cube'],
  [DeviceType.Meter, 'meter'],
]);

interface ChainLinkProps {
  kind: 'accessPoint' | 'cube' | 'meter';
  serial: string;
  health: DeviceHealth;
  lastSeenAt: string | null;
  timeZone: string;
  now: number;
}

function ChainLink({ kind, serial, health, lastSeenAt, timeZone, now }: ChainLinkProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const seen = lastSeenAt === null ? null : Date.parse(lastSeenAt);
  return (
    <div className={classes.chainLink}>
      <Text size="xs" c="dimmed">
        {t(`check.chain.${kind}`)}
      </Text>
      <Text fw={600} size="sm">
        {serial}
      </Text>
      <ToneBadge tone={healthTones[health]}>{t(`check.health.${health}`)}</ToneBadge>
      <Text
        size="xs"
        c="dimmed"
        title={seen === null ? undefined : (formatIsoInZone(lastSeenAt, locale, timeZone) ?? undefined)}
      >
        {seen === null
          ? t('check.chain.neverSeen')
          : t('check.chain.lastSeen', { when: formatRelative(seen, locale, now) })}
      </Text>
    </div>
  );
}

function chainLink(kind: 'accessPoint' | 'cube', device: ChainDevice | null, timeZone: string, now: number) {
  if (!device) return null;
  return (
    <ChainLink
      kind={kind}
      serial={device.serial}
      health={device.health}
      lastSeenAt={device.lastSeenAt}
      timeZone={timeZone}
      now={now}
    />
  );
}

interface MeterCardProps {
  meter: MeterInfo;
  meterNumbers?: string[] | undefined;
  now: number;
}

/**
 * Each readings answer carries the meter anew: an equal meter (it is small JSON) does not
 * re-render the card, so a new range redraws the chart without it.
 */
function sameMeterCard(a: MeterCardProps, b: MeterCardProps): boolean {
  return (
    a.now === b.now &&
    JSON.stringify(a.meter) === JSON.stringify(b.meter) &&
    JSON.stringify(a.meterNumbers) === JSON.stringify(b.meterNumbers)
  );
}

/** The meter's star (issue 17.10): the same bookmark as in the navbar's menu. */
function MeterStar({ meter }: { meter: MeterInfo }) {
  const id = itemSuggestionId('meter', meter.meterNumber);
  const isBookmarked = useIsBookmarked(id);
  const item = {
    id,
    kind: 'meter',
    title: meter.meterNumber,
    subtitle: meterSubtitle(meter.label, meter.location.publicName),
    link: itemSuggestionLink('meter', meter.meterNumber),
    icon: 'meter',
    isBookmarked,
  } as const;
  return <BookmarkToggle item={item} isBookmarked={isBookmarked} size="lg" />;
}

/** What the meter is, where, whether it reports, and how to read its register. */
export const MeterCard = memo(function MeterCard({ meter, meterNumbers, now }: MeterCardProps) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const tz = meter.location.timeZone;
  const at = (iso: string | null, style: 'dateTime' | 'date' = 'dateTime') =>
    formatIsoInZone(iso, locale, tz, style) ?? t('check.meter.unknown');
  const links = [
    chainLink('accessPoint', meter.chain.accessPoint, tz, now),
    chainLink('cube', meter.chain.cube, tz, now),
  ].filter((link) => link !== null);
  const { before, after } = exchangeNeighbours(meterNumbers, meter.meterNumber, meter.removedAt !== null);
  const unit = meter.unit;

  return (
    <SectionPanel labelledBy="cm-meter-title">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <div>
            <Group gap={4} wrap="nowrap" align="center">
              <Title order={2} id="cm-meter-title" className={classes.meterTitle}>
                {t('check.meter.heading', { meterNumber: meter.meterNumber })}
              </Title>
              <MeterStar meter={meter} />
            </Group>
            <Group gap="xs" align="center">
              {meter.label ? (
                <Text fw={600} data-testid="meter-label">
                  {meter.label}
                </Text>
              ) : null}
              <MeterNickname meterNumber={meter.meterNumber} />
            </Group>
            <Anchor
              component={Link}
              to={`/who-read/${encodeURIComponent(meter.meterNumber)}`}
              size="sm"
              data-testid="who-read-link"
            >
              {t('check.meter.whoRead')}
            </Anchor>
            <Text size="sm" c="dimmed">
              {t(`check.deviceType.${deviceTypeKeys.get(meter.type) ?? 'unknown'}`)} ·{' '}
              {t('check.meter.meterInd', { meterInd: meter.meterInd })}
            </Text>
          </div>
          <Group gap={6}>
            <ToneBadge tone={deviceStatusLabels[meter.status].color}>
              {t(deviceStatusLabels[meter.status].key)}
            </ToneBadge>
            <ToneBadge tone={healthTones[meter.health]}>{t(`check.health.${meter.health}`)}</ToneBadge>
            <ToneBadge tone="outline">
              {t('check.meter.priority', {
                priority: t(devicePriorityLabels[toPriorityId(meter.priority)].key),
              })}
            </ToneBadge>
          </Group>
        </Group>

        <div className={classes.chain} role="list" aria-label={t('check.chain.title')}>
          {links.map((link, index) => (
            <Fragment key={index}>
              <div role="listitem">{link}</div>
              <IconArrowRight size={16} aria-hidden className={classes.chainArrow} />
            </Fragment>
          ))}
          <div role="listitem">
            <ChainLink
              kind="meter"
              serial={meter.meterNumber}
              health={meter.health}
              lastSeenAt={meter.lastSeenAt}
              timeZone={tz}
              now={now}
            />
          </div>
        </div>

        <dl className={classes.facts}>
          <div>
            <dt>{t('check.meter.location')}</dt>
            <dd>
              <Text span fw={600}>
                {meter.location.publicName}
              </Text>
              <Text size="sm" c="dimmed">
                {meter.location.address}
              </Text>
            </dd>
          </div>
          <div>
            <dt>{t('check.meter.timeZone')}</dt>
            <dd>
              {meter.location.timeZone}{' '}
              <Text span size="sm" c="dimmed">
                ({formatUtcOffset(now, tz)})
              </Text>
            </dd>
          </div>
          <div>
            <dt>{t('check.meter.register')}</dt>
            <dd>
              {meter.multiplier === 1
                ? t('check.meter.multiplierOne', { unit })
                : t('check.meter.multiplier', { multiplier: formatNumber(meter.multiplier, locale), unit })}
              <Text size="sm" c="dimmed">
                {t('check.meter.registerDetails', {
                  digits: meter.registerDigits,
                  minutes: meter.intervalMinutes,
                })}
              </Text>
            </dd>
          </div>
          <div>
            <dt>{t('check.meter.lastReading')}</dt>
            <dd>
              {meter.lastReading === null
                ? t(meter.completeUpTo === null ? 'check.meter.noReading' : 'check.meter.intervalsOnly')
                : meter.multiplier === 1
                  ? t('check.meter.lastReadingValue', {
                      value: formatRegister(meter.lastReading.value, locale),
                      unit,
                      at: at(meter.lastReading.at),
                    })
                  : // A CT meter's display counts a fraction of the energy: say so, with the energy.
                    t('check.meter.lastReadingValueCt', {
                      value: formatRegister(meter.lastReading.value, locale),
                      multiplier: formatNumber(meter.multiplier, locale),
                      energy: formatEnergy(meter.lastReading.value * meter.multiplier, locale),
                      at: at(meter.lastReading.at),
                    })}
            </dd>
          </div>
          <div>
            <dt>{t('check.meter.completeUpTo')}</dt>
            <dd>{meter.completeUpTo === null ? t('check.meter.unknown') : at(meter.completeUpTo)}</dd>
          </div>
          <div>
            <dt>{t('check.meter.installed')}</dt>
            <dd>
              {at(meter.installedAt, 'date')}
              {meter.removedAt !== null ? (
                <Text size="sm" c="dimmed">
                  {t('check.meter.removed', { at: at(meter.removedAt, 'date') })}
                </Text>
              ) : null}
            </dd>
          </div>
          {before.length > 0 ? (
            <div>
              <dt>{t('check.meter.history')}</dt>
              <dd>{t('check.meter.historyValue', { meters: before.join(', ') })}</dd>
            </div>
          ) : null}
          {after.length > 0 ? (
            <div>
              <dt>{t('check.meter.replacedBy')}</dt>
              <dd data-testid="replaced-by">
                {t('check.meter.replacedByValue', {
                  meters: after.join(', '),
                  at: at(meter.removedAt, 'dateTime'),
                })}
              </dd>
            </div>
          ) : null}
        </dl>
      </Stack>
    </SectionPanel>
  );
}, sameMeterCard);

/** The card's shape while it loads (memo: the page renders again for every answer). */
export const MeterCardSkeleton = memo(function MeterCardSkeleton() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" aria-busy="true" aria-label={t('check.loading')}>
      <Stack gap="sm">
        <Skeleton height={28} width="40%" />
        <Skeleton height={14} width="25%" />
        <Skeleton height={64} />
        <Skeleton height={14} width="70%" />
        <Skeleton height={14} width="60%" />
      </Stack>
    </Paper>
  );
});
