import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { BaseRecord, CrudFilter } from '@refinedev/core';
import { Button, InputNumber, Space, Table } from 'antd';
import { useState, type FC } from 'react';
import type { ResourceDef } from '@rti/metadata/browser';
import { QUANTITY_MIN, mergeQuantityLines, normalizeQuantity, totalQuantity, type QuantityLine } from '../lib/quantity';
import { useMetaT, useMetadata } from '../hooks/use-meta';
import { ResourcePicker } from './resource-picker';

export interface QuantityPickerProps {
  /** resource the rows are picked from */
  resource: ResourceDef | string;
  value?: QuantityLine<BaseRecord>[];
  onChange?: (lines: QuantityLine<BaseRecord>[]) => void;
  /** filters always applied to the picker */
  filters?: CrudFilter[];
  /** upper bound of one line's quantity, when the caller knows it */
  max?: number;
  disabled?: boolean;
}

/**
 * Quantity picker (SPEC §2, §9): rows chosen with the modal picker, each with a whole
 * quantity of at least 1 (default 1). Form-compatible (`value`/`onChange`); exported for plugins.
 */
export const QuantityPicker: FC<QuantityPickerProps> = ({ resource, value = [], onChange, filters, max, disabled }) => {
  const { t } = useMetaT();
  const { resources } = useMetadata();
  const def = typeof resource === 'string' ? resources[resource] : resource;
  const [open, setOpen] = useState(false);
  const title = def?.titleField ?? 'id';
  const set = (lines: QuantityLine<BaseRecord>[]) => onChange?.(lines);

  return (
    <div data-testid="quantity-picker">
      <Space style={{ marginBottom: 8 }}>
        <Button icon={<PlusOutlined />} onClick={() => setOpen(true)} disabled={disabled} data-testid="quantity-picker-add">
          {t('meta.pick')}
        </Button>
        <span>{t('meta.quantityTotal', { lines: value.length, total: totalQuantity(value) })}</span>
      </Space>
      <Table
        size="small"
        rowKey={(l) => String(l.id)}
        dataSource={value}
        pagination={value.length > 10 ? { pageSize: 10, size: 'small' } : false}
        columns={[
          { key: 'title', title: t('meta.item'), render: (_: unknown, l) => String(l.row[title] ?? l.row[`${title}Label`] ?? l.id) },
          {
            key: 'quantity',
            title: t('meta.quantity'),
            width: 160,
            render: (_: unknown, l) => (
              <InputNumber
                min={QUANTITY_MIN}
                max={max}
                precision={0}
                disabled={disabled}
                value={l.quantity}
                data-testid={`quantity-${String(l.id)}`}
                onChange={(v) => set(value.map((x) => (x.id === l.id ? { ...x, quantity: normalizeQuantity(v, max) } : x)))}
              />
            ),
          },
          {
            key: 'remove',
            width: 60,
            render: (_: unknown, l) => (
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                disabled={disabled}
                aria-label={t('meta.delete')}
                onClick={() => set(value.filter((x) => x.id !== l.id))}
              />
            ),
          },
        ]}
      />
      {def && (
        <ResourcePicker
          resource={def}
          open={open}
          filters={filters}
          value={value.map((l) => l.row)}
          onCancel={() => setOpen(false)}
          onOk={(_ids, rows) => {
            set(mergeQuantityLines(value, rows));
            setOpen(false);
          }}
        />
      )}
    </div>
  );
};
