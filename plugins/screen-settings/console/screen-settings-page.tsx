import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App, Button, Card, Checkbox, Input, InputNumber, Select, Space, Switch, Table, Tag, Typography, type TableColumnType } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { fieldLabelKey, OVERLAY_LANGUAGES, resourceLabelKey, type ResourceDef, type ResourceOverlay } from '@rti/metadata/browser';
import { request, formatDateTime } from '@rti/console/plugin-api';
import { useShell } from '@rti/console/plugin-api';
import { reloadMetadata } from '@rti/console/plugin-api';
import { move, overlayOf, rowsOf, type FieldRow } from './overlay-rows';

interface Stored {
  base: ResourceDef;
  overlay: ResourceOverlay | null;
  updatedBy: string | null;
  updatedAt: string | null;
}

/**
 * Screen settings: a platform administrator picks a resource and changes its generated
 * screens — labels per language, column order/visibility/width, stricter required flags,
 * defaults, detail visibility. The server checks and stores the overlay and every screen,
 * validation message and export follows after save.
 */
export default function ScreenSettingsPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const { meta, user, access } = useShell();
  const platform = Boolean(user.sysOrgUser);
  const canWrite = platform && access.has('ApiMetadataOverlayUpdate');
  const resources = useMemo(
    () => Object.values(meta.resources).sort((a, b) => t(resourceLabelKey(a)).localeCompare(t(resourceLabelKey(b)))),
    [meta.resources, t],
  );
  const [name, setName] = useState<string>();
  const [stored, setStored] = useState<Stored>();
  const [rows, setRows] = useState<FieldRow[]>([]);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (resource: string) => {
      setBusy(true);
      try {
        const s = await request<Stored>('/metadata/overlay/get', { resource });
        setStored(s);
        setRows(rowsOf(s.base, s.overlay));
      } catch (e) {
        void message.error(e instanceof Error ? e.message : String(e));
      } finally {
        setBusy(false);
      }
    },
    [message],
  );
  useEffect(() => {
    // load() reports its own failure
    if (name) void load(name);
  }, [name, load]);

  const patch = (field: string, change: Partial<FieldRow>) => setRows((rs) => rs.map((r) => (r.name === field ? { ...r, ...change } : r)));

  const save = async () => {
    if (!stored) return;
    setBusy(true);
    try {
      await request('/metadata/overlay/update', overlayOf(stored.base, rows));
      void message.success(t('screenSettings.saved'));
      await Promise.all([load(stored.base.name), reloadMetadata()]);
    } catch (e) {
      // the server names each refused setting in the caller's language
      void message.error(e instanceof Error ? e.message : String(e), 8);
    } finally {
      setBusy(false);
    }
  };
  const reset = () => {
    modal.confirm({
      title: t('screenSettings.reset'),
      content: t('screenSettings.resetConfirm'),
      okType: 'danger',
      okButtonProps: { 'data-testid': 'screen-settings-reset-confirm' } as never,
      onOk: async () => {
        await request('/metadata/overlay/delete', { resource: stored!.base.name });
        void message.success(t('screenSettings.resetDone'));
        await Promise.all([load(stored!.base.name), reloadMetadata()]);
      },
    });
  };

  const enumOptions = (r: FieldRow) => (meta.enums[r.field.enum ?? ''] ?? []).map((e) => ({ value: e.value, label: t(e.label) }));
  const defaultInput = (r: FieldRow) => {
    const set = (v: unknown) => patch(r.name, { default: v ?? undefined });
    if (r.field.readOnly) return <Typography.Text type="secondary">-</Typography.Text>;
    switch (r.field.type) {
      case 'enum':
        return (
          <Select allowClear size="small" style={{ width: 140 }} value={r.default as never} options={enumOptions(r)} onChange={set} disabled={!canWrite} />
        );
      case 'bool':
        return (
          <Select
            allowClear
            size="small"
            style={{ width: 100 }}
            value={r.default as never}
            options={[
              { value: true, label: t('screenSettings.yes') },
              { value: false, label: t('screenSettings.no') },
            ]}
            onChange={set}
            disabled={!canWrite}
          />
        );
      case 'int':
      case 'decimal':
        return (
          <InputNumber
            size="small"
            style={{ width: 110 }}
            value={r.default as number | undefined}
            min={r.field.min}
            max={r.field.max}
            onChange={set}
            disabled={!canWrite}
          />
        );
      case 'string':
      case 'text':
        return (
          <Input
            size="small"
            style={{ width: 140 }}
            value={(r.default as string | undefined) ?? ''}
            maxLength={r.field.maxLength}
            onChange={(e) => set(e.target.value || undefined)}
            disabled={!canWrite}
          />
        );
      default:
        return <Typography.Text type="secondary">-</Typography.Text>;
    }
  };

  const columns: TableColumnType<FieldRow>[] = [
    {
      key: 'order',
      title: t('screenSettings.order'),
      width: 80,
      render: (_, r, i) => (
        <Space size={0}>
          <Button
            size="small"
            type="text"
            icon={<ArrowUpOutlined />}
            disabled={!canWrite || i === 0}
            onClick={() => setRows((rs) => move(rs, r.name, -1))}
            aria-label={t('screenSettings.up')}
            data-testid={`move-up:${r.name}`}
          />
          <Button
            size="small"
            type="text"
            icon={<ArrowDownOutlined />}
            disabled={!canWrite || i === rows.length - 1}
            onClick={() => setRows((rs) => move(rs, r.name, 1))}
            aria-label={t('screenSettings.down')}
          />
        </Space>
      ),
    },
    {
      key: 'field',
      title: t('screenSettings.field'),
      width: 200,
      render: (_, r) => (
        <Space direction="vertical" size={0}>
          <span>{t(fieldLabelKey(r.field))}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.name} <Tag bordered={false}>{r.field.type}</Tag>
          </Typography.Text>
        </Space>
      ),
    },
    ...OVERLAY_LANGUAGES.map((lng): TableColumnType<FieldRow> => ({
      key: `label:${lng}`,
      title: `${t('screenSettings.label')} (${lng})`,
      width: 170,
      render: (_, r) => (
        <Input
          size="small"
          maxLength={100}
          placeholder={t(fieldLabelKey(r.field), { lng })}
          value={r.label[lng] ?? ''}
          disabled={!canWrite}
          data-testid={`label:${r.name}:${lng}`}
          onChange={(e) => patch(r.name, { label: { ...r.label, [lng]: e.target.value } })}
        />
      ),
    })),
    {
      key: 'required',
      title: t('screenSettings.required'),
      width: 90,
      render: (_, r) => (
        <Checkbox
          checked={r.required}
          disabled={!canWrite || r.baseRequired || Boolean(r.field.readOnly)}
          onChange={(e) => patch(r.name, { required: e.target.checked })}
          data-testid={`required:${r.name}`}
        />
      ),
    },
    { key: 'default', title: t('screenSettings.default'), width: 160, render: (_, r) => defaultInput(r) },
    {
      key: 'list',
      title: t('screenSettings.listVisible'),
      width: 100,
      render: (_, r) =>
        r.listable ? (
          <Switch
            size="small"
            checked={r.listVisible}
            disabled={!canWrite}
            onChange={(v) => patch(r.name, { listVisible: v })}
            data-testid={`list:${r.name}`}
          />
        ) : (
          '-'
        ),
    },
    {
      key: 'width',
      title: t('screenSettings.width'),
      width: 100,
      render: (_, r) =>
        r.listable ? (
          <InputNumber
            size="small"
            min={40}
            max={800}
            style={{ width: 80 }}
            value={r.listWidth}
            disabled={!canWrite}
            onChange={(v) => patch(r.name, { listWidth: v ?? undefined })}
          />
        ) : (
          '-'
        ),
    },
    {
      key: 'show',
      title: t('screenSettings.show'),
      width: 90,
      render: (_, r) => <Switch size="small" checked={r.show} disabled={!canWrite} onChange={(v) => patch(r.name, { show: v })} />,
    },
  ];

  return (
    <Card title={t('menu.screenSettings')} data-testid="screen-settings">
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('screenSettings.intro')}
        </Typography.Paragraph>
        {!platform && <Alert type="info" showIcon message={t('screenSettings.platformOnly')} />}
        <Space wrap>
          <Select
            showSearch
            optionFilterProp="label"
            style={{ width: 320 }}
            placeholder={t('screenSettings.pickResource')}
            value={name}
            onChange={setName}
            options={resources.map((r) => ({ value: r.name, label: `${t(resourceLabelKey(r))} (${r.name})` }))}
            data-testid="screen-settings-resource"
          />
          {stored?.updatedAt && (
            <Typography.Text type="secondary">
              {t('screenSettings.changedBy', { by: stored.updatedBy ?? '-', at: formatDateTime(stored.updatedAt) })}
            </Typography.Text>
          )}
        </Space>
        {stored && (
          <>
            <Table<FieldRow> rowKey="name" size="small" pagination={false} loading={busy} columns={columns} dataSource={rows} scroll={{ x: 1400 }} />
            <Space>
              <Button type="primary" icon={<SaveOutlined />} loading={busy} disabled={!canWrite} onClick={() => void save()} data-testid="screen-settings-save">
                {t('screenSettings.save')}
              </Button>
              <Button danger icon={<UndoOutlined />} disabled={!canWrite || !stored.overlay} onClick={reset} data-testid="screen-settings-reset">
                {t('screenSettings.reset')}
              </Button>
            </Space>
          </>
        )}
      </Space>
    </Card>
  );
}
