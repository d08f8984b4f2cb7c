import { DatePicker, Input, InputNumber, Select, Space, Spin, Switch } from 'antd';
import { lazy, Suspense, useMemo, type FC, type ReactNode } from 'react';
import type { FieldDef } from '@rti/metadata/browser';
import { DATE_FORMAT, DATETIME_FORMAT } from '../lib/format';
import type { FormMode } from '../lib/fields';
import { keepsOldWhenEmpty } from '../lib/rules';
import { useEnums, useMetaT } from '../hooks/use-meta';
import { LngLatInput } from './lnglat-input';
import { fieldWidget, type FieldWidgetProps } from './field-widgets';

// rarely used, heavy inputs load with the first form that needs them
const PermissionsInput = lazy(() => import('./permissions-input').then((m) => ({ default: m.PermissionsInput })));
const UploadInput = lazy(() => import('./upload-input').then((m) => ({ default: m.UploadInput })));
const ColorInput = lazy(() => import('./color-input'));
const later = (node: ReactNode) => <Suspense fallback={<Spin size="small" />}>{node}</Suspense>;

let zones: Array<{ value: string; label: string }> | undefined;
const timeZoneOptions = () =>
  (zones ??= ['UTC', ...((Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [])]
    .filter((z, i, all) => all.indexOf(z) === i)
    .map((z) => ({ value: z, label: z })));

/** A widget's props, `mode` and `context` defaulting to a create form. */
export type FieldInputProps = Omit<FieldWidgetProps, 'mode' | 'context'> & Partial<Pick<FieldWidgetProps, 'mode' | 'context'>>;

/** Enum options translated, memoised per enum and language. */
export function useEnumOptions(name: string | undefined) {
  const enums = useEnums();
  const { t } = useMetaT();
  return useMemo(() => (name ? (enums[name] ?? []).map((e) => ({ value: e.value, label: t(e.label) })) : []), [enums, name, t]);
}

/**
 * The input of one field: the widget registered for it (./field-widgets: the reference pickers,
 * plugins' widgets) or else the plain input of its type; a drop-in child of antd Form.Item
 * (value/onChange).
 */
export const FieldInput: FC<FieldInputProps> = ({ mode = 'create', context = 'form', ...props }) => {
  const Widget = fieldWidget(props.field, context, props.resource);
  // in its own Suspense: a plugin's widget may be a lazy component
  if (Widget) return later(<Widget {...props} mode={mode} context={context} />);
  return <PlainInput {...props} mode={mode} context={context} />;
};

/** The inputs of the field types that need nothing but antd (and the lazily loaded upload, colour and permissions inputs). */
const PlainInput: FC<FieldWidgetProps> = ({ field, mode, context, value, onChange, disabled, id, placeholder }) => {
  const { t } = useMetaT();
  const enumOptions = useEnumOptions(field.enum);
  const unit = field.unit ? t(`units.${field.unit}`) : undefined;
  const common = { id, disabled, placeholder };
  const full = { width: '100%' };

  if (field.writeOnly || field.type === 'password') {
    return (
      <Input.Password
        {...common}
        autoComplete="new-password"
        value={(value as string) ?? ''}
        onChange={(e) => onChange?.(e.target.value)}
        placeholder={placeholder ?? (keepsOldWhenEmpty(field, mode) ? t('meta.keepEmpty') : undefined)}
      />
    );
  }

  // the organisation's zone: a searchable list of the zones this browser knows, not free text
  if (field.type === 'string' && field.pattern === 'timeZone') {
    return (
      <Select
        {...common}
        allowClear
        showSearch
        options={timeZoneOptions()}
        value={(value as string | null) || undefined}
        onChange={(v) => onChange?.(v ?? null)}
      />
    );
  }

  switch (field.type) {
    case 'text':
      return (
        <Input.TextArea
          {...common}
          autoSize={{ minRows: 2, maxRows: 6 }}
          showCount={Boolean(field.maxLength)}
          maxLength={field.maxLength}
          value={(value as string) ?? ''}
          onChange={(e) => onChange?.(e.target.value)}
        />
      );
    case 'int':
    case 'decimal': {
      const input = (
        <InputNumber
          {...common}
          style={unit ? { flex: 1 } : full}
          precision={field.type === 'int' ? 0 : (field.scale ?? 2)}
          value={value as number | null}
          onChange={(v) => onChange?.(v)}
        />
      );
      return unit ? (
        <Space.Compact style={full}>
          {input}
          <Space.Addon>{unit}</Space.Addon>
        </Space.Compact>
      ) : (
        input
      );
    }
    case 'bool':
      if (context === 'search') {
        return (
          <Select
            {...common}
            allowClear
            value={value as boolean | undefined}
            onChange={onChange}
            options={[
              { value: true, label: t('meta.yes') },
              { value: false, label: t('meta.no') },
            ]}
          />
        );
      }
      return <Switch id={id} disabled={disabled} checked={Boolean(value)} onChange={(v) => onChange?.(v)} />;
    case 'date':
      return <DatePicker {...common} style={full} format={DATE_FORMAT} value={value as never} onChange={(v) => onChange?.(v)} />;
    case 'datetime':
      return <DatePicker {...common} style={full} showTime format={DATETIME_FORMAT} value={value as never} onChange={(v) => onChange?.(v)} />;
    case 'enum':
    case 'enums':
      return (
        <Select
          {...common}
          allowClear
          showSearch
          optionFilterProp="label"
          mode={field.type === 'enums' || (context === 'search' && field.search === 'in') ? 'multiple' : undefined}
          options={enumOptions}
          value={value as never}
          onChange={onChange}
        />
      );
    case 'color':
      return later(<ColorInput disabled={disabled} value={value as string | null} onChange={onChange} />);
    case 'json':
      return (
        <Input.TextArea
          {...common}
          spellCheck={false}
          autoSize={{ minRows: 4, maxRows: 16 }}
          style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 12 }}
          value={(value as string) ?? ''}
          onChange={(e) => onChange?.(e.target.value)}
        />
      );
    case 'lnglat':
      return <LngLatInput id={id} disabled={disabled} value={value as never} onChange={onChange} />;
    case 'image':
    case 'file':
      return later(<UploadInput id={id} kind={field.type} max={field.max} disabled={disabled} value={value as never} onChange={onChange} />);
    case 'permissions':
      return later(<PermissionsInput id={id} disabled={disabled} value={value as never} onChange={onChange} />);
    default:
      return <Input {...common} allowClear={context === 'search'} value={(value as string) ?? ''} onChange={(e) => onChange?.(e.target.value)} />;
  }
};
