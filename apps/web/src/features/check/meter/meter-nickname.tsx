import { ActionIcon, Button, Group, Text, TextInput } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useTranslation } from 'react-i18next';
import { useMeterNickname, useNameMeterMutation } from '@/lib/bookmarks-api.ts';

/** Longest nickname (the contract's limit). */
const MAX_NICKNAME = 60;

/**
 * The caller's own name for a meter ("My flat", issue 17.5): seen by the caller alone, beside the
 * name the site gives it; set, changed or removed (saved empty) in place.
 */
export function MeterNickname({ meterNumber }: { meterNumber: string }) {
  const { t } = useTranslation();
  const nickname = useMeterNickname(meterNumber);
  const [draft, setDraft] = useState<string | null>(null);
  const [nameMeter, { isLoading }] = useNameMeterMutation();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = await nameMeter({ meterNumber, nickname: (draft ?? '').trim() });
    if ('error' in result) toast.error(t('check.nickname.failed'), { id: 'nickname-error' });
    else setDraft(null);
  }

  if (draft !== null) {
    return (
      <form onSubmit={(event) => void handleSubmit(event)} data-testid="nickname-form">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            size="xs"
            label={t('check.nickname.label')}
            description={t('check.nickname.hint')}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
            maxLength={MAX_NICKNAME}
            autoComplete="off"
            data-autofocus
            autoFocus
          />
          <Button size="xs" type="submit" loading={isLoading}>
            {t('check.nickname.save')}
          </Button>
          <Button size="xs" variant="default" onClick={() => setDraft(null)}>
            {t('check.nickname.cancel')}
          </Button>
        </Group>
      </form>
    );
  }
  return (
    <Group gap={4} wrap="nowrap">
      {nickname ? (
        <Text size="sm" data-testid="meter-nickname">
          {t('check.nickname.yours', { nickname })}
        </Text>
      ) : null}
      <ActionIcon
        variant="subtle"
        color="gray"
        size="sm"
        onClick={() => setDraft(nickname)}
        aria-label={t(nickname ? 'check.nickname.rename' : 'check.nickname.add', { meterNumber })}
        title={t(nickname ? 'check.nickname.rename' : 'check.nickname.add', { meterNumber })}
      >
        <IconPencil size={14} aria-hidden />
      </ActionIcon>
    </Group>
  );
}
