import { CheckCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import { Space, Tag, Typography } from 'antd';
import type { FC, ReactNode } from 'react';
import type { EnumsFile, FieldDef } from '@rti/metadata/browser';
import { asArray, formatDate, formatNumber, isEmpty, type Translate } from '../lib/format';
import { useEnums, useMetaT } from '../hooks/use-meta';
import { enumTag } from './enum-tag';
import { StoredFileLink, StoredImage } from './stored-file';

export interface FieldRendererProps {
  field: FieldDef;
  record: Record<string, unknown>;
  /** table cells stay one line; detail shows everything */
  variant?: 'table' | 'detail';
}

const EMPTY = <Typography.Text type="secondary">-</Typography.Text>;

/** A field's value in a row, rendered by type (tags, labels, thumbnails, units, dates). */
export const FieldRenderer: FC<FieldRendererProps> = ({ field, record, variant = 'table' }) => {
  const { t } = useMetaT();
  const enums = useEnums();
  return <>{renderFieldValue(field, record, variant, t, enums)}</>;
};

/**
 * The same without hooks: tables call it once per cell with the page's translate function
 * and enumerations, so a 100-row page does not subscribe 1,500 cells to i18n.
 */
export function renderFieldValue(field: FieldDef, record: Record<string, unknown>, variant: 'table' | 'detail', t: Translate, enums: EnumsFile): ReactNode {
  const v = record[field.name];
  const unit = field.unit ? t(`units.${field.unit}`) : undefined;
  const withUnit = (text: string): ReactNode => (unit ? `${text} ${unit}` : text);

  switch (field.type) {
    case 'enum':
      return isEmpty(v) ? EMPTY : enumTag(enums, t, field.enum, v);
    case 'enums':
      return isEmpty(v) ? EMPTY : <>{asArray(v).map((x) => enumTag(enums, t, field.enum, x, String(x)))}</>;
    case 'ref': {
      const label = record[`${field.name}Label`];
      return isEmpty(label) ? isEmpty(v) ? EMPTY : <>{String(v)}</> : <>{String(label)}</>;
    }
    case 'refs': {
      const labels = asArray(record[`${field.name}Labels`]);
      const shown = labels.length ? labels : asArray(v);
      return shown.length ? (
        <>
          {shown.map((x, i) => (
            <Tag key={i}>{String(x)}</Tag>
          ))}
        </>
      ) : (
        EMPTY
      );
    }
    case 'bool':
      if (isEmpty(v)) return EMPTY;
      return v === true || v === 1 || v === '1' || v === 'true' ? (
        <Tag color="success" icon={<CheckCircleFilled />}>
          {t('meta.yes')}
        </Tag>
      ) : (
        <Tag icon={<MinusCircleOutlined />}>{t('meta.no')}</Tag>
      );
    case 'datetime':
    case 'date':
      return isEmpty(v) ? EMPTY : <span style={{ whiteSpace: 'nowrap' }}>{formatDate(v, field.type === 'datetime')}</span>;
    case 'int':
      return isEmpty(v) ? EMPTY : <>{withUnit(formatNumber(v))}</>;
    case 'decimal':
      return isEmpty(v) ? EMPTY : <>{withUnit(formatNumber(v, field.scale ?? 2))}</>;
    case 'color':
      return isEmpty(v) ? (
        EMPTY
      ) : (
        <Space size={6}>
          <span
            style={{
              display: 'inline-block',
              width: 14,
              height: 14,
              borderRadius: 3,
              background: String(v),
              border: '1px solid rgba(0,0,0,.15)',
              verticalAlign: 'middle',
            }}
          />
          <span>{String(v)}</span>
        </Space>
      );
    case 'image': {
      const names = asArray(v).map(String);
      if (!names.length) return EMPTY;
      const size = variant === 'table' ? 36 : 96;
      return (
        <Space size={4} wrap>
          {names.map((n) => (
            <StoredImage key={n} name={n} size={size} alt={field.name} />
          ))}
        </Space>
      );
    }
    case 'file': {
      const names = asArray(v).map(String);
      if (!names.length) return EMPTY;
      return (
        <Space size={4} wrap>
          {names.map((n) => (
            <StoredFileLink key={n} name={n} />
          ))}
        </Space>
      );
    }
    case 'lnglat': {
      const [lng, lat] = asArray(v);
      return lng === undefined || lat === undefined || lng === null || lat === null ? EMPTY : <>{`${String(lng)}, ${String(lat)}`}</>;
    }
    case 'permissions': {
      const n = asArray(v).length;
      return n ? <Tag color="blue">{t('meta.permissionCount', { count: n })}</Tag> : EMPTY;
    }
    case 'json': {
      if (isEmpty(v)) return EMPTY;
      const text = typeof v === 'string' ? v : JSON.stringify(v, null, variant === 'detail' ? 2 : undefined);
      return variant === 'detail' ? (
        <pre style={{ margin: 0, maxHeight: 320, overflow: 'auto', fontSize: 12 }}>{text}</pre>
      ) : (
        <Typography.Text code ellipsis={{ tooltip: text }} style={{ maxWidth: 240 }}>
          {text}
        </Typography.Text>
      );
    }
    case 'text':
      if (isEmpty(v)) return EMPTY;
      return variant === 'detail' ? (
        <span style={{ whiteSpace: 'pre-wrap' }}>{String(v)}</span>
      ) : (
        <Typography.Text ellipsis={{ tooltip: String(v) }} style={{ maxWidth: 280 }}>
          {String(v)}
        </Typography.Text>
      );
    default:
      return isEmpty(v) ? EMPTY : <>{withUnit(Array.isArray(v) ? v.join(', ') : String(v))}</>;
  }
}
