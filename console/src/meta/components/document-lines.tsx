import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import type { BaseKey, BaseRecord } from '@refinedev/core';
import { Alert, Button, Card, Space, Table, Typography, type TableColumnType } from 'antd';
import { useCallback, useMemo, useState, type FC, type Key, type ReactNode } from 'react';
import { resourceApiPrefix, resourceLabelKey, type ChildrenDef, type FieldDef, type ResourceDef } from '@rti/metadata/browser';
import { columnSpecs } from '../lib/columns';
import { duplicateLines, emptyLine, rollUpPreview, type EditorLine } from '../lib/document-lines';
import { knownRefLabels } from './ref-select';
import { useEnums, useMetaT } from '../hooks/use-meta';
import { FieldInput } from './field-input';
// the reference fields' widgets, the refs picker among them (registered by their modules: ./field-widgets)
import './refs-input';
import { renderFieldValue } from './field-renderer';
import { NavButton } from './row-actions';
import { Zone, useZone } from './zone';
import { LineStepButtons, useLineSteps } from './line-steps';
import { BatchAdd, BatchSet } from './batch-add';
import { ImportButton } from './import-dialog';
import { useResourceAccess } from '../hooks/use-resource-access';
import { useCan } from '../../components/guard/guarded';
import { zoneName } from '../../lib/zones';
import type { LinesZoneProps } from '../../plugin-contract';

const PAGE_SIZE = 20;

/**
 * The frame both line tables share: the line resource's title, the line count and the header's
 * roll-ups ("3 lines · Total amount: 5"), an action, and the frozen notice.
 */
const LinesCard: FC<{
  parent: ResourceDef;
  def: ChildrenDef;
  child: ResourceDef;
  /** number of lines, unknown while a page loads */
  count: number | undefined;
  /** the roll-up fields' values; an empty one is left out */
  rollUps: Record<string, unknown>;
  action?: ReactNode;
  frozen: boolean;
  children: ReactNode;
}> = ({ parent, def, child, count, rollUps, action, frozen, children }) => {
  const { t, fieldLabel } = useMetaT();
  const summary = (def.rollUps ?? []).map((r) => {
    const f = parent.fields.find((x) => x.name === r.field);
    const v = rollUps[r.field];
    return v === undefined || v === null ? '' : `${f ? fieldLabel(f) : r.field}: ${String(v)}`;
  });
  return (
    <Card
      size="small"
      title={t(resourceLabelKey(child))}
      style={{ marginTop: 16 }}
      data-testid={`document-lines-${child.name}`}
      extra={
        <Space>
          <Typography.Text type="secondary" data-testid="document-lines-summary">
            {[count === undefined ? '' : t('meta.lineCount', { count }), ...summary].filter(Boolean).join(' · ')}
          </Typography.Text>
          {action}
        </Space>
      }
    >
      {frozen && <Alert type="info" showIcon message={t('meta.linesFrozen')} style={{ marginBottom: 12 }} data-testid="document-lines-frozen" />}
      {children}
    </Card>
  );
};

/**
 * The lines of a document edited in place, on the header's own page (no drawer, nothing saved
 * until the page's one Save): a table of the line form's inputs, paged so a 5,000-line
 * document renders 20 rows of inputs at a time; repeated unique keys are marked, the header's
 * roll-ups previewed. Frozen (`editableWhen`) lines show read-only.
 */
export const DocumentLines: FC<{
  parent: ResourceDef;
  def: ChildrenDef;
  child: ResourceDef;
  fields: FieldDef[];
  lines: EditorLine[];
  onChange: (lines: EditorLine[]) => void;
  readOnly?: boolean;
}> = ({ parent, def, child, fields, lines, onChange, readOnly }) => {
  const { t, fieldLabel } = useMetaT();
  const [page, setPage] = useState(1);
  const dup = useMemo(() => duplicateLines(lines, def.uniqueKeys), [lines, def.uniqueKeys]);
  const totals = useMemo(() => rollUpPreview(def, lines), [def, lines]);

  const setValue = (index: number, name: string, v: unknown) => {
    const next = lines.slice();
    const { [`${name}Label`]: _label, ...rest } = next[index].values;
    next[index] = { ...next[index], values: { ...rest, [name]: v } };
    onChange(next);
  };
  const add = () => {
    onChange([...lines, emptyLine(fields)]);
    setPage(Math.floor(lines.length / PAGE_SIZE) + 1);
  };
  const remove = (index: number) => onChange(lines.filter((_, i) => i !== index));

  const columns: TableColumnType<EditorLine>[] = [
    { key: '__no', title: '#', width: 56, render: (_: unknown, __: EditorLine, i: number) => (page - 1) * PAGE_SIZE + i + 1 },
    ...fields.map((f) => ({
      key: f.name,
      title: fieldLabel(f),
      width: f.type === 'text' ? 240 : 180,
      render: (_: unknown, line: EditorLine, i: number) => {
        const index = (page - 1) * PAGE_SIZE + i;
        const first = dup.get(index);
        const isKey = def.uniqueKeys?.includes(f.name);
        return (
          <Space direction="vertical" size={0} style={{ width: '100%' }}>
            <FieldInput
              field={f}
              mode={line.id !== undefined ? 'edit' : 'create'}
              value={line.values[f.name]}
              onChange={(v) => setValue(index, f.name, v)}
              disabled={readOnly}
              knownLabels={knownRefLabels(f, line.values)}
            />
            {isKey && first !== undefined && (
              <Typography.Text type="danger" data-testid="document-line-duplicate">
                {t('meta.duplicateLine', { line: first + 1 })}
              </Typography.Text>
            )}
          </Space>
        );
      },
    })),
  ];
  if (!readOnly) {
    columns.push({
      key: '__remove',
      width: 90,
      render: (_: unknown, __: EditorLine, i: number) => (
        <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove((page - 1) * PAGE_SIZE + i)} data-testid="document-line-remove">
          {t('meta.removeLine')}
        </Button>
      ),
    });
  }

  return (
    <LinesCard
      parent={parent}
      def={def}
      child={child}
      count={lines.length}
      rollUps={totals}
      frozen={Boolean(readOnly)}
      action={
        !readOnly && (
          <Button size="small" type="primary" icon={<PlusOutlined />} onClick={add} data-testid="document-line-add">
            {t('meta.addLine')}
          </Button>
        )
      }
    >
      <Table
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={lines}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('meta.noLines') }}
        pagination={{ current: page, pageSize: PAGE_SIZE, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false, size: 'small' }}
      />
    </LinesCard>
  );
};

/**
 * The lines of a document on its detail page: read-only, paged by the server (a 5,000-line
 * document loads one page), with the header's roll-ups. Lines change only on the one-page
 * editor (`editTo`, offered when the header's status lets them: `editableWhen`), never one
 * line at a time in a drawer: the document is saved whole, in one call.
 */
export const DocumentLinesView: FC<{
  parent: ResourceDef;
  def: ChildrenDef;
  child: ResourceDef;
  parentId: BaseKey;
  header: Record<string, unknown>;
  frozen: boolean;
  /** the one-page editor of this document, when the user may edit it now */
  editTo?: string;
  /** reads the header (and so this table) again, after a zone's action */
  onChanged?: () => void;
  /** offer "Add by …" (children `batch`) while the lines may change; a record page packing them says no */
  adding?: boolean;
}> = ({ parent, def, child, parentId, header, frozen, editTo, onChanged, adding = true }) => {
  const { t, fieldLabel } = useMetaT();
  const enums = useEnums();
  const scope = useMemo(() => [{ field: def.foreignKey, operator: 'eq' as const, value: parentId }], [def.foreignKey, parentId]);
  const { tableProps, tableQuery } = useTable({
    resource: child.name,
    syncWithLocation: false,
    pagination: { pageSize: PAGE_SIZE },
    filters: { permanent: scope },
  });
  const columns = useMemo(
    () =>
      columnSpecs(child)
        .filter((s) => s.defaultVisible && s.key !== def.foreignKey)
        .map((s) => ({
          key: s.key,
          dataIndex: s.key,
          title: fieldLabel(s.field),
          width: s.width,
          render: (_: unknown, r: BaseRecord) => renderFieldValue(s.field, r, 'table', t, enums),
        })),
    [child, def.foreignKey, fieldLabel, t, enums],
  );
  const total = tableQuery.data?.total;
  // plugins' buttons above the lines (`<parent>.lines.toolbar`) act on the ticked lines
  const zone = zoneName(parent.name, 'lines.toolbar');
  const toolbar = useZone<LinesZoneProps>(zone, header);
  const [selected, setSelected] = useState<Key[]>([]);
  const refetchLines = tableQuery.refetch;
  const refresh = useCallback(() => {
    void refetchLines();
    onChanged?.();
  }, [refetchLines, onChanged]);
  const clearSelection = useCallback(() => setSelected([]), []);
  // the lines' own steps (a receipt's "Receive") on the ticked lines, while the header is open
  const steps = useLineSteps(parent, header, child);
  // the declared batch values set on ticked lines while they may change
  const canSet = useCan({ call: `${resourceApiPrefix(child)}/batch/update` });
  const access = useResourceAccess(child);
  const setting = Boolean(def.batch?.values?.length) && !frozen && canSet;
  const ticking = toolbar.length > 0 || steps.length > 0 || setting;
  return (
    <LinesCard
      parent={parent}
      def={def}
      child={child}
      count={total}
      rollUps={header}
      // "lines can no longer change" would contradict a toolbar acting on them (receiving them)
      frozen={frozen && !ticking}
      action={
        !frozen &&
        editTo && (
          <NavButton to={editTo} icon={<EditOutlined />} testId="document-lines-edit" size="small" type="primary">
            {t('meta.editLines')}
          </NavButton>
        )
      }
    >
      {/* lines added by typed, scanned or pasted keys while they may change (children `batch`) */}
      {def.batch && !frozen && adding && (
        <div style={{ marginBottom: 12 }}>
          <BatchAdd def={def} lines={child} headerId={parentId} onAdded={refresh} />
        </div>
      )}
      {/* lines from a file (the line resource's import: a shipping list), each row answered with its reason */}
      {!frozen && adding && child.import && access.import && (
        <div style={{ marginBottom: 12 }}>
          <ImportButton resource={child} onFinished={refresh} />
        </div>
      )}
      {(steps.length > 0 || setting) && (
        <Space wrap style={{ marginBottom: 12 }}>
          {steps.length > 0 && (
            <LineStepButtons steps={steps} selectedIds={selected as Array<number | string>} clearSelection={clearSelection} refresh={refresh} />
          )}
          {setting && <BatchSet def={def} lines={child} selectedIds={selected as Array<number | string>} clearSelection={clearSelection} refresh={refresh} />}
        </Space>
      )}
      <Zone
        name={zone}
        components={toolbar}
        props={{ resource: parent, record: header, refresh, lines: child, selectedIds: selected as Array<number | string>, clearSelection }}
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
        rowSelection={ticking ? { selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys) } : undefined}
        locale={{ emptyText: t('meta.noLines') }}
        pagination={tableProps.pagination ? { ...tableProps.pagination, size: 'small', hideOnSinglePage: true, showSizeChanger: false } : false}
      />
    </LinesCard>
  );
};
