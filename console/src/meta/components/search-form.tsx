import { DownOutlined, ReloadOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Col, DatePicker, Form, Grid, InputNumber, Row, Space, type FormProps } from 'antd';
import { useState, type FC } from 'react';
import type { FieldDef } from '@rti/metadata/browser';
import { DATE_FORMAT } from '../lib/format';
import { useMetaT } from '../hooks/use-meta';
import { FieldInput } from './field-input';
// the reference fields' widget (registered by its module: ./field-widgets)
import './ref-select';

const COL = { xs: 24, sm: 12, lg: 8, xxl: 6 };

/** Fields per row at the current width, as COL lays them out. */
function perRow(bp: Partial<Record<'sm' | 'lg' | 'xxl', boolean>>): number {
  return bp.xxl ? 4 : bp.lg ? 3 : bp.sm ? 2 : 1;
}

type Pair = [number | null, number | null];

const NumberRange: FC<{ value?: Pair | null; onChange?: (v: Pair) => void; id?: string; unit?: string }> = ({ value, onChange, id, unit }) => {
  const [from, to] = value ?? [null, null];
  return (
    <Space.Compact style={{ width: '100%' }}>
      <InputNumber id={id} style={{ flex: 1 }} value={from} onChange={(v) => onChange?.([v, to])} />
      <InputNumber style={{ flex: 1 }} value={to} onChange={(v) => onChange?.([from, v])} />
      {unit && <Space.Addon>{unit}</Space.Addon>}
    </Space.Compact>
  );
};

const SearchInput: FC<{ field: FieldDef; value?: unknown; onChange?: (v: unknown) => void; id?: string }> = ({ field, ...rest }) => {
  const { t } = useMetaT();
  if (field.search === 'range' && (field.type === 'date' || field.type === 'datetime')) {
    return (
      <DatePicker.RangePicker
        id={rest.id}
        style={{ width: '100%' }}
        format={DATE_FORMAT}
        allowEmpty={[true, true]}
        value={rest.value as never}
        onChange={rest.onChange}
      />
    );
  }
  if (field.search === 'range' && (field.type === 'int' || field.type === 'decimal')) {
    return <NumberRange {...rest} value={rest.value as Pair} unit={field.unit ? t(`units.${field.unit}`) : undefined} />;
  }
  // a prefix search does not find the middle of a value: the empty box says so
  return <FieldInput field={field} context="search" placeholder={field.search === 'prefix' ? t('meta.startsWith') : undefined} {...rest} />;
};

export interface SearchFormProps {
  fields: FieldDef[];
  formProps: FormProps;
  onReset: () => void;
  loading?: boolean;
}

/** Collapsible search form of a list screen; Enter searches, Reset clears filters too. */
export const SearchForm: FC<SearchFormProps> = ({ fields, formProps, onReset, loading }) => {
  const { t, fieldLabel } = useMetaT();
  const [expanded, setExpanded] = useState(false);
  const bp = Grid.useBreakpoint();
  if (!fields.length) return null;
  // collapsed: one row, its last cell taken by the buttons
  const n = perRow(bp);
  const collapsedCount = Math.max(1, n - 1);
  const collapsible = fields.length > collapsedCount;
  const shown = collapsible && !expanded ? collapsedCount : fields.length;
  // the buttons fill the rest of the last row, right-aligned
  const rest = n - (shown % n);
  return (
    <Form
      {...formProps}
      layout="horizontal"
      labelWrap
      labelCol={{ flex: '0 0 110px' }}
      wrapperCol={{ flex: '1 1 0', style: { minWidth: 0 } }}
      data-testid="meta-search-form"
      style={{ marginBottom: 16 }}
    >
      <Row gutter={[16, 0]}>
        {fields.map((f, i) => (
          // collapsed fields stay mounted so their values still filter
          <Col key={f.name} {...COL} style={collapsible && !expanded && i >= collapsedCount ? { display: 'none' } : undefined}>
            <Form.Item name={f.name} label={fieldLabel(f)} style={{ marginBottom: 12 }}>
              <SearchInput field={f} />
            </Form.Item>
          </Col>
        ))}
        <Col span={(24 / n) * rest} style={{ textAlign: 'right', marginBottom: 12 }}>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />} loading={loading} data-testid="meta-search-submit">
              {t('meta.search')}
            </Button>
            <Button icon={<ReloadOutlined />} onClick={onReset} data-testid="meta-search-reset">
              {t('meta.reset')}
            </Button>
            {collapsible && (
              <Button type="link" onClick={() => setExpanded((e) => !e)} aria-expanded={expanded} data-testid="meta-search-toggle" style={{ paddingInline: 4 }}>
                {expanded ? t('meta.collapse') : t('meta.expand')} {expanded ? <UpOutlined /> : <DownOutlined />}
              </Button>
            )}
          </Space>
        </Col>
      </Row>
    </Form>
  );
};
