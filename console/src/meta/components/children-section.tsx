import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import { useCreate, useDataProvider, useUpdate, useDelete, type BaseKey, type BaseRecord } from '@refinedev/core';
import { App, Button, Card, Drawer, Form, Popconfirm, Space, Table, type TableColumnType } from 'antd';
import { useCallback, useMemo, useState, type FC, type Key } from 'react';
import { resourceLabelKey, type ChildrenDef, type ResourceDef } from '@rti/metadata/browser';
import { columnSpecs } from '../lib/columns';
import { formFields } from '../lib/fields';
import { fromFormValues, toFormValues } from '../lib/form-values';
import { planUpsert } from '../lib/unique-key';
import { linesEditable } from '../lib/document-lines';
import { DocumentLinesView } from './document-lines';
import { ImportButton } from './import-dialog';
import { useEnums, useMetaT, useMetadata } from '../hooks/use-meta';
import { useResourceAccess } from '../hooks/use-resource-access';
import { renderFieldValue } from './field-renderer';
import { MetaForm } from './meta-form';
import { deleteQuestion } from '../lib/record-name';
import { Zone, useZone } from './zone';
import { zoneName } from '../../lib/zones';
import type { LinesZoneProps } from '../../plugin-contract';

/**
 * Sub-rows of a record (metadata `children`), one card per child resource: the child's rows
 * scoped by the foreign key, added and edited in a drawer with the child's generated form
 * while the parent's status lets them change (`editableWhen`). A document's lines (`inline`)
 * show read-only instead, edited with their header on the one-page editor.
 */
export const ChildrenSections: FC<{
  parent: ResourceDef;
  parentId: BaseKey;
  /** the parent's row: its status freezes lines (`editableWhen`) */
  record?: Record<string, unknown>;
  readOnly?: boolean;
  /** the parent's edit screen, when the user may edit it now: a document's lines are edited there */
  editTo?: string;
  onChanged?: () => void;
}> = ({ parent, parentId, record, readOnly, editTo, onChanged }) => {
  const { resources } = useMetadata();
  return (
    <>
      {(parent.children ?? []).map((c) => {
        const child = resources[c.resource];
        if (!child) return null;
        const frozen = Boolean(readOnly) || !linesEditable(c, record);
        // a document's lines (inline) are saved with their header on the one-page editor
        if (c.inline)
          return (
            <DocumentLinesView
              key={c.resource}
              parent={parent}
              def={c}
              child={child}
              parentId={parentId}
              header={record ?? {}}
              frozen={frozen}
              editTo={editTo}
              onChanged={onChanged}
            />
          );
        return <ChildRows key={c.resource} parent={parent} record={record} def={c} child={child} parentId={parentId} readOnly={frozen} onChanged={onChanged} />;
      })}
    </>
  );
};

const PAGE_SIZE = 10;

const ChildRows: FC<{
  parent: ResourceDef;
  record?: Record<string, unknown>;
  def: ChildrenDef;
  child: ResourceDef;
  parentId: BaseKey;
  readOnly?: boolean;
  onChanged?: () => void;
}> = ({ parent, record, def, child, parentId, readOnly, onChanged }) => {
  const { t, fieldLabel } = useMetaT();
  const enums = useEnums();
  const { message } = App.useApp();
  const access = useResourceAccess(child);
  const scope = useMemo(() => [{ field: def.foreignKey, operator: 'eq' as const, value: parentId }], [def.foreignKey, parentId]);
  const { tableProps, tableQuery } = useTable({
    resource: child.name,
    syncWithLocation: false,
    pagination: { pageSize: PAGE_SIZE },
    filters: { permanent: scope },
  });
  // the drawer: undefined = closed, null = adding, a row = editing it
  const [editing, setEditing] = useState<BaseRecord | null | undefined>(undefined);
  const [form] = Form.useForm();
  const getProvider = useDataProvider();
  const { mutateAsync: create } = useCreate();
  const { mutateAsync: update } = useUpdate();
  const { mutateAsync: remove } = useDelete();
  const refetchRows = tableQuery.refetch;
  const [saving, setSaving] = useState(false);
  const mode = editing ? 'edit' : 'create';
  // the foreign key is the parent: never asked
  const fields = useMemo(() => formFields(child, mode).filter((f) => f.name !== def.foreignKey), [child, mode, def.foreignKey]);
  const canChange = !readOnly;

  const open = useCallback(
    (row: BaseRecord | null) => {
      const m = row ? 'edit' : 'create';
      const initial = toFormValues(
        formFields(child, m).filter((f) => f.name !== def.foreignKey),
        row ?? undefined,
        m,
      );
      form.resetFields();
      setEditing(row);
      // the drawer's form mounts with the drawer: fill it on the next tick
      setTimeout(() => form.setFieldsValue(initial as never));
    },
    [child, def.foreignKey, form],
  );

  /** Rows of this parent holding the same unique key values, asked of the server (all pages). */
  const sameKeyRows = async (values: Record<string, unknown>): Promise<BaseRecord[]> => {
    const keys = def.uniqueKeys ?? [];
    if (!keys.length || keys.some((k) => values[k] === undefined || values[k] === null)) return [];
    const { data } = await getProvider(undefined).getList({
      resource: child.name,
      pagination: { currentPage: 1, pageSize: 5 },
      filters: [...scope, ...keys.map((k) => ({ field: k, operator: 'eq' as const, value: values[k] }))],
    });
    return data;
  };

  const save = async () => {
    const raw = (await form.validateFields()) as Record<string, unknown>;
    setSaving(true);
    try {
      const body = { ...fromFormValues(fields, raw, mode), [def.foreignKey]: parentId };
      const plan = planUpsert(await sameKeyRows(body), def.uniqueKeys, body, editing ? editing.id : undefined);
      const notify = {
        successNotification: false as const,
        errorNotification: (e?: { message?: string }) => ({ type: 'error' as const, message: t('meta.saveFailed'), description: e?.message }),
      };
      if (plan.kind === 'create') await create({ resource: child.name, values: plan.values, ...notify });
      else await update({ resource: child.name, id: plan.id as BaseKey, values: plan.values, ...notify });
      void message.success(t(plan.kind === 'update' && plan.merged ? 'meta.childMerged' : plan.kind === 'create' ? 'meta.created' : 'meta.updated'));
      setEditing(undefined);
      void tableQuery.refetch();
      // the parent may carry totals of its sub-rows
      onChanged?.();
    } catch {
      // the notification already said why; the drawer stays open to fix it
    } finally {
      setSaving(false);
    }
  };

  const columns = useMemo(() => {
    const cols: TableColumnType<BaseRecord>[] = columnSpecs(child)
      .filter((s) => s.defaultVisible && s.key !== def.foreignKey)
      .map((s) => ({
        key: s.key,
        dataIndex: s.key,
        title: fieldLabel(s.field),
        width: s.width,
        render: (_: unknown, r: BaseRecord) => renderFieldValue(s.field, r, 'table', t, enums),
      }));
    if (canChange && (access.edit || access.delete))
      cols.push({
        key: '__actions',
        title: t('meta.actions'),
        width: 150,
        render: (_: unknown, r: BaseRecord) => (
          <Space size={0}>
            {access.edit && (
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => open(r)} data-testid="child-row-edit">
                {t('meta.edit')}
              </Button>
            )}
            {access.delete && (
              <Popconfirm
                title={deleteQuestion(t, child, r)}
                description={t('meta.deleteConfirm')}
                okText={t('meta.delete')}
                cancelText={t('meta.cancel')}
                okButtonProps={{ danger: true, 'data-testid': 'child-delete-ok' } as never}
                // antd awaits a promise onConfirm returns (OK button loading, closes when settled) though
                // its type says void; this one never rejects (caught below)
                // eslint-disable-next-line @typescript-eslint/no-misused-promises
                onConfirm={() =>
                  remove({
                    resource: child.name,
                    id: r.id as BaseKey,
                    successNotification: () => ({ type: 'success', message: t('meta.deleted') }),
                    errorNotification: (e) => ({ type: 'error', message: t('meta.deleteFailed'), description: e?.message }),
                  })
                    .then(() => {
                      void refetchRows();
                      onChanged?.();
                    })
                    .catch(() => undefined)
                }
              >
                <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid="child-row-delete">
                  {t('meta.delete')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        ),
      });
    return cols;
  }, [child, def.foreignKey, fieldLabel, t, enums, canChange, access.edit, access.delete, onChanged, open, remove, refetchRows]);

  // plugins' buttons above the rows (`<parent>.lines.toolbar`) act on the ticked rows
  const zone = zoneName(parent.name, 'lines.toolbar');
  const toolbar = useZone<LinesZoneProps>(zone, record);
  const [selected, setSelected] = useState<Key[]>([]);
  const refresh = useCallback(() => {
    void refetchRows();
    onChanged?.();
  }, [refetchRows, onChanged]);
  const clearSelection = useCallback(() => setSelected([]), []);

  const label = t(resourceLabelKey(child));
  return (
    <Card
      size="small"
      title={label}
      style={{ marginTop: 16 }}
      data-testid={`children-${child.name}`}
      extra={
        canChange && (access.create || access.import) ? (
          <Space size="small">
            {/* sub-rows filled from a file (a ship plan's cubing plan) are imported from their card */}
            {access.import && (
              <ImportButton
                resource={child}
                onFinished={() => {
                  void tableQuery.refetch();
                  onChanged?.();
                }}
              />
            )}
            {access.create && (
              <Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => open(null)} data-testid="child-add">
                {t('meta.create')}
              </Button>
            )}
          </Space>
        ) : undefined
      }
    >
      <Zone
        name={zone}
        components={toolbar}
        props={{ resource: parent, record: record ?? {}, refresh, lines: child, selectedIds: selected as Array<number | string>, clearSelection }}
        wrap={(c) => (
          <Space wrap style={{ marginBottom: 12 }}>
            {c}
          </Space>
        )}
      />
      <Table
        {...tableProps}
        rowKey="id"
        size="small"
        columns={columns}
        scroll={{ x: 'max-content' }}
        rowSelection={toolbar.length ? { selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys) } : undefined}
        pagination={tableProps.pagination ? { ...tableProps.pagination, size: 'small', hideOnSinglePage: true } : false}
      />
      <Drawer
        open={editing !== undefined}
        width={560}
        title={t(editing ? 'meta.editTitle' : 'meta.createTitle', { resource: label })}
        onClose={() => setEditing(undefined)}
        destroyOnHidden
        extra={
          <Space>
            <Button onClick={() => setEditing(undefined)}>{t('meta.cancel')}</Button>
            <Button type="primary" loading={saving} onClick={() => void save().catch(() => undefined)} data-testid="child-save">
              {t('meta.save')}
            </Button>
          </Space>
        }
      >
        <MetaForm resource={child} fields={fields} mode={mode} formProps={{ form }} record={editing ?? undefined} />
      </Drawer>
    </Card>
  );
};
