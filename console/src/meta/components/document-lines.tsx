import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Space, Table, Typography, type TableColumnType } from 'antd';
import { useMemo, useState, type FC } from 'react';
import { resourceLabelKey, type ChildrenDef, type FieldDef, type ResourceDef } from '@rti/metadata/browser';
import { duplicateLines, emptyLine, rollUpPreview, type EditorLine } from '../lib/document-lines';
import { knownRefLabels } from './ref-select';
import { useMetaT } from '../hooks/use-meta';
import { FieldInput } from './field-input';

const PAGE_SIZE = 20;

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
            <FieldInput field={f} mode={line.id !== undefined ? 'edit' : 'create'} value={line.values[f.name]} onChange={(v) => setValue(index, f.name, v)} disabled={readOnly} knownLabels={knownRefLabels(f, line.values)} />
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

  const summary = (def.rollUps ?? [])
    .map((r) => {
      const f = parent.fields.find((x) => x.name === r.field);
      return `${f ? fieldLabel(f) : r.field}: ${totals[r.field]}`;
    })
    .join(' · ');

  return (
    <Card
      size="small"
      title={t(resourceLabelKey(child))}
      style={{ marginTop: 16 }}
      data-testid={`document-lines-${child.name}`}
      extra={
        <Space>
          <Typography.Text type="secondary" data-testid="document-lines-summary">
            {[t('meta.lineCount', { count: lines.length }), summary].filter(Boolean).join(' · ')}
          </Typography.Text>
          {!readOnly && (
            <Button size="small" type="primary" icon={<PlusOutlined />} onClick={add} data-testid="document-line-add">
              {t('meta.addLine')}
            </Button>
          )}
        </Space>
      }
    >
      {readOnly && <Alert type="info" showIcon message={t('meta.linesFrozen')} style={{ marginBottom: 12 }} />}
      <Table
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={lines}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('meta.noLines') }}
        pagination={{ current: page, pageSize: PAGE_SIZE, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false, size: 'small' }}
      />
    </Card>
  );
};
