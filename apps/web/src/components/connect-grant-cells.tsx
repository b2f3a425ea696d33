import { Badge, Button, Table, Text } from '@mantine/core';
import type { ConnectGrant } from '@cm/contracts/connect.ts';
import { useTranslation } from 'react-i18next';

/**
 * The last cells of a grant's row wherever it is listed (the customer's Connected apps, the
 * administrators' grants): whether it is active (or how it ended), and Revoke.
 */
export function GrantCells({
  grant,
  endedText,
  onRevoke,
}: {
  grant: ConnectGrant;
  /** How an ended grant is said here: the customer reads when, administrators also by whom. */
  endedText: (grant: ConnectGrant & { revokedAt: string }) => string;
  onRevoke: (grant: ConnectGrant) => void;
}) {
  const { t } = useTranslation();
  const { revokedAt } = grant;
  return (
    <>
      <Table.Td>
        {revokedAt ? (
          <Text size="sm">{endedText({ ...grant, revokedAt })}</Text>
        ) : (
          <Badge variant="dot" color="teal">
            {t('connect.apps.active')}
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        {revokedAt ? null : (
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={() => onRevoke(grant)}
            aria-label={t('connect.apps.revokeNamed', { app: grant.app.name })}
          >
            {t('connect.apps.revoke')}
          </Button>
        )}
      </Table.Td>
    </>
  );
}
