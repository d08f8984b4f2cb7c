import { useTable } from '@refinedev/antd';
import type { BaseRecord, CrudFilter } from '@refinedev/core';
import { Button, Card, Modal, Space, Table, Tag, type TableColumnType } from 'antd';
import { useMemo, useState, type FC } from 'react';
import { resourceLabelKey, type ResourceDef } from '@rti/metadata/browser';
import { columnSpecs } from '../lib/columns';
import { searchFields } from '../lib/fields';
import { searchToFilters } from '../lib/filters';
import { applyPageSelection, selectedIds, selectionOf, type Selection } from '../lib/selection';
import { useEnums, useMetaT, useMetadata } from '../hooks/use-meta';
import { renderFieldValue } from './field-renderer';
import { SearchForm } from './search-form';

/** SPEC §9 picker page size. */
export const PICKER_PAGE_SIZE = 20;

export interface ResourcePickerProps {
  /** the resource to pick rows of (a ResourceDef or its name) */
  resource: ResourceDef | string;
  open: boolean;
  onCancel: () => void;
  /** chosen ids and rows, in the order they were picked */
  onOk: (ids: unknown[], rows: BaseRecord[]) => void;
  /** several rows (default) or exactly one */
  multiple?: boolean;
  /** rows already chosen (kept selected across pages); `{ id }` alone is enough */
  value?: BaseRecord[];
  /** filters always applied (e.g. a ref's `filter`, a parent's warehouse) */
  filters?: CrudFilter[];
  title?: string;
}

/**
 * Modal picker (SPEC §2): the target's search form and table, 20 rows a page, a selection
 * that survives paging and searching. Exported for plugins.
 */
export const ResourcePicker: FC<ResourcePickerProps> = (props) => {
  const { resources } = useMetadata();
  const def = typeof props.resource === 'string' ? resources[props.resource] : props.resource;
  if (!def || !props.open) return null;
  return <PickerModal {...props} def={def} />;
};

const PickerModal: FC<ResourcePickerProps & { def: ResourceDef }> = ({ def, onCancel, onOk, multiple = true, value, filters, title }) => {
  const { t, fieldLabel } = useMetaT();
  const enums = useEnums();
  const search = useMemo(() => searchFields(def), [def]);
  const [selection, setSelection] = useState<Selection<BaseRecord>>(() => selectionOf(value ?? []));
  const { tableProps, searchFormProps, setFilters, setCurrentPage, tableQuery } = useTable({
    resource: def.name,
    syncWithLocation: false,
    pagination: { pageSize: PICKER_PAGE_SIZE },
    filters: { permanent: filters ?? [] },
    onSearch: (values) => searchToFilters(search, values as Record<string, unknown>),
  });
  const columns = useMemo<TableColumnType<BaseRecord>[]>(
    () =>
      columnSpecs(def)
        .filter((s) => s.defaultVisible)
        .slice(0, 8)
        .map((s) => ({
          key: s.key,
          dataIndex: s.key,
          title: fieldLabel(s.field),
          width: s.width,
          render: (_: unknown, r: BaseRecord) => renderFieldValue(s.field, r, 'table', t, enums),
        })),
    [def, fieldLabel, t, enums],
  );
  const pageRows = (tableProps.dataSource ?? []) as BaseRecord[];
  const titleOf = (r: BaseRecord) => String(r[def.titleField] ?? r[`${def.titleField}Label`] ?? r.id);

  return (
    <Modal
      open
      width={960}
      title={title ?? t('meta.pickTitle', { resource: t(resourceLabelKey(def)) })}
      onCancel={onCancel}
      destroyOnHidden
      footer={
        <Space>
          <span data-testid="picker-count">{t('meta.selectedCount', { count: selection.size })}</span>
          <Button onClick={() => setSelection(new Map())} disabled={selection.size === 0}>
            {t('meta.clear')}
          </Button>
          <Button onClick={onCancel}>{t('meta.cancel')}</Button>
          <Button type="primary" data-testid="picker-ok" onClick={() => onOk(selectedIds(selection), [...selection.values()])}>
            {t('meta.ok')}
          </Button>
        </Space>
      }
    >
      <div data-testid="resource-picker">
        {search.length > 0 && (
          <Card size="small" style={{ marginBottom: 8 }} styles={{ body: { paddingBottom: 0 } }}>
            <SearchForm
              fields={search}
              formProps={searchFormProps}
              loading={tableQuery.isFetching}
              onReset={() => {
                searchFormProps.form?.resetFields();
                setFilters(searchToFilters(search, {}));
                setCurrentPage(1);
              }}
            />
          </Card>
        )}
        {selection.size > 0 && (
          <div style={{ marginBottom: 8, maxHeight: 64, overflow: 'auto' }}>
            {[...selection.values()].map((r) => (
              <Tag
                key={String(r.id)}
                closable
                onClose={() =>
                  setSelection((s) => {
                    const n = new Map(s);
                    n.delete(String(r.id));
                    return n;
                  })
                }
              >
                {titleOf(r)}
              </Tag>
            ))}
          </div>
        )}
        <Table
          {...tableProps}
          rowKey="id"
          size="small"
          columns={columns}
          scroll={{ x: 'max-content', y: 400 }}
          pagination={
            tableProps.pagination ? { ...tableProps.pagination, showSizeChanger: false, showTotal: (total) => t('meta.totalShort', { total }) } : false
          }
          rowSelection={{
            type: multiple ? 'checkbox' : 'radio',
            preserveSelectedRowKeys: true,
            selectedRowKeys: [...selection.values()].map((r) => r.id as never),
            onChange: (keys) => setSelection((s) => applyPageSelection(s, pageRows, keys, multiple ? undefined : 1)),
          }}
          onRow={(r) => ({
            onDoubleClick: () => {
              if (!multiple) onOk([r.id], [r]);
            },
          })}
        />
      </div>
    </Modal>
  );
};
