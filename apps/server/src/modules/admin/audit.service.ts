import type { Db } from '../../db/client.ts';
import { presentAudit } from './admin.presenter.ts';
import { listAudit } from './audit.queries.ts';

export class AuditService {
  constructor(private readonly db: Db) {}

  async list(query: {
    page: number;
    pageSize: number;
    targetType?: string | undefined;
    targetId?: string | undefined;
  }) {
    const rows = await listAudit(this.db, {
      targetType: query.targetType || undefined,
      targetId: query.targetId || undefined,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return {
      items: rows.map(presentAudit),
      total: rows[0]?.total ?? 0,
      page: query.page,
      pageSize: query.pageSize,
    };
  }
}
