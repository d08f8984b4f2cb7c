import { DownOutlined, SwapOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Tooltip } from 'antd';
import { useState, type FC } from 'react';
import { resourceApiPath, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { findEnumValue } from '../lib/format';
import { statusTargets } from '../lib/status-rules';
import { useEnums, useMetaT } from '../hooks/use-meta';

/** The `<name>/status/update` call of a row (rules.statusUpdate), confirmed before it runs. */
export const StatusAction: FC<{
  resource: ResourceDef;
  record: Record<string, unknown> & { id?: unknown };
  onChanged: () => void;
  size?: 'small' | 'middle';
}> = ({ resource, record, onChanged, size = 'small' }) => {
  const { t, fieldLabel } = useMetaT();
  const enums = useEnums();
  const { modal, message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const rule = resource.rules?.statusUpdate;
  const field = rule ? resource.fields.find((f) => f.name === rule.field) : undefined;
  if (!rule || !field?.enum || record.id === undefined) return null;
  const targets = statusTargets(resource, record, enums[field.enum] ?? []);
  if (!targets.length) return null;
  const label = (v: string | number) => {
    const e = findEnumValue(enums, field.enum, v);
    return e ? t(e.label) : String(v);
  };

  const change = (value: string | number) =>
    modal.confirm({
      title: t('meta.statusConfirm', { name: fieldLabel(field), value: label(value) }),
      okText: t('meta.ok'),
      cancelText: t('meta.cancel'),
      onOk: async () => {
        setBusy(true);
        try {
          await request(resourceApiPath(resource, 'status/update'), { id: record.id, [field.name]: value });
          void message.success(t('meta.statusChanged'));
          onChanged();
        } catch (e) {
          void message.error(e instanceof Error ? e.message : String(e));
        } finally {
          setBusy(false);
        }
      },
    });

  return (
    <Dropdown trigger={['click']} menu={{ items: targets.map((v) => ({ key: String(v), label: label(v), onClick: () => change(v) })) }}>
      {size === 'small' ? (
        // table rows: icon only, so the actions column stays narrow
        <Tooltip title={fieldLabel(field)}>
          <Button type="link" size="small" icon={<SwapOutlined />} loading={busy} aria-label={fieldLabel(field)} data-testid="meta-row-status" />
        </Tooltip>
      ) : (
        <Button size={size} icon={<SwapOutlined />} loading={busy} data-testid="meta-row-status">
          {fieldLabel(field)} <DownOutlined />
        </Button>
      )}
    </Dropdown>
  );
};
