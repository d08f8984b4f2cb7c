import { ExportOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import dayjs from 'dayjs';
import { useState, type FC } from 'react';
import type { CrudFilter, CrudSort } from '@refinedev/core';
import { resourceApiPath, resourceLabelKey, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { downloadBlob } from '../lib/download';
import { exportBody } from '../lib/filters';
import { useMetaT } from '../hooks/use-meta';

/** Exports can run long on big tables (SPEC §9 uses generous time-outs for exports). */
const EXPORT_TIMEOUT_MS = 10 * 60_000;

/** Exports the list as the server renders it, with the table's current filters and sorts. */
export const ExportButton: FC<{ resource: ResourceDef; filters: CrudFilter[]; sorters: CrudSort[] }> = ({ resource, filters, sorters }) => {
  const { t } = useMetaT();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const blob = await request<Blob>(resourceApiPath(resource, 'export'), exportBody(filters, sorters), { blob: true, timeoutMs: EXPORT_TIMEOUT_MS });
      downloadBlob(blob, `${t(resourceLabelKey(resource))}-${dayjs().format('YYYYMMDDHHmmss')}.xlsx`);
      void message.success(t('meta.exported'));
    } catch (e) {
      // the HTTP client logs it; the user still needs to see why nothing downloaded
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon={<ExportOutlined />} loading={busy} onClick={() => void run() /* run() reports its own failure */} data-testid="meta-export">
      {t('meta.export')}
    </Button>
  );
};
