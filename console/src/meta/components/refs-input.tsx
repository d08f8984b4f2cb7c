import { SelectOutlined } from '@ant-design/icons';
import { useList, type BaseRecord, type CrudFilter } from '@refinedev/core';
import { Button, Space, Tooltip } from 'antd';
import { useMemo, useState, type FC } from 'react';
import type { FieldDef } from '@rti/metadata/browser';
import { asArray } from '../lib/format';
import { useMetaT } from '../hooks/use-meta';
import { RefSelect, useCanList, type RefSelectProps } from './ref-select';
import { ResourcePicker } from './resource-picker';
import { registerFieldWidget } from './field-widgets';

/** Above this many target rows a drop-down is a poor way to choose: offer the modal picker too. */
export const PICKER_THRESHOLD = 50;

/** A `refs` form input: the searchable select, plus the modal picker when the target is large. */
export const RefsInput: FC<RefSelectProps & { field: FieldDef }> = ({ field, value, onChange, knownLabels, disabled, ...rest }) => {
  const { t } = useMetaT();
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<Record<string, string>>({});
  const ref = field.ref!;
  const filters = useMemo<CrudFilter[]>(() => Object.entries(ref.filter ?? {}).map(([f, v]) => ({ field: f, operator: 'eq', value: v })), [ref]);
  // one row is enough to learn the total
  // only when the user may list the target (RefSelect says why not)
  const listable = useCanList(ref.resource) === true;
  const { result } = useList({
    resource: ref.resource,
    filters,
    pagination: { currentPage: 1, pageSize: 1 },
    errorNotification: false,
    queryOptions: { enabled: listable },
  });
  const large = listable && (result?.total ?? 0) > PICKER_THRESHOLD;
  const ids = asArray(value);
  const labels = { ...knownLabels, ...picked };

  return (
    <Space.Compact style={{ width: '100%' }}>
      <RefSelect {...rest} field={field} multiple value={value} onChange={onChange} knownLabels={labels} disabled={disabled} />
      {large && (
        <Tooltip title={t('meta.pick')}>
          <Button icon={<SelectOutlined />} onClick={() => setOpen(true)} disabled={disabled} data-testid={`refs-picker-${field.name}`} />
        </Tooltip>
      )}
      {large && (
        <ResourcePicker
          resource={ref.resource}
          open={open}
          filters={filters}
          value={ids.map((id) => ({ id, [ref.label]: labels[String(id)] ?? id }) as BaseRecord)}
          onCancel={() => setOpen(false)}
          onOk={(newIds, rows) => {
            setPicked(Object.fromEntries(rows.map((r) => [String(r.id), String(r[ref.label] ?? r.id)])));
            (onChange as ((v: unknown) => void) | undefined)?.(newIds);
            setOpen(false);
          }}
        />
      )}
    </Space.Compact>
  );
};

/**
 * `refs` fields in forms: the select plus the modal picker for large targets (a search form
 * keeps ref-select's multi-select). Registered here, where the picker is (./field-widgets).
 */
registerFieldWidget({ type: 'refs', context: 'form' }, ({ field, value, onChange, disabled, id, placeholder, knownLabels }) =>
  field.ref ? (
    <RefsInput id={id} disabled={disabled} placeholder={placeholder} field={field} knownLabels={knownLabels} value={value as never} onChange={onChange} />
  ) : (
    <RefSelect
      id={id}
      disabled={disabled}
      placeholder={placeholder}
      field={field}
      multiple
      knownLabels={knownLabels}
      value={value as never}
      onChange={onChange}
    />
  ),
);
