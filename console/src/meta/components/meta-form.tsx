import { Card, Col, Form, Row, type FormProps } from 'antd';
import { useMemo, type FC } from 'react';
import type { FieldDef, ResourceDef } from '@rti/metadata/browser';
import { fieldSpan, groupFields, type FormMode } from '../lib/fields';
import { compareRules, confirmRules, fieldRules } from '../lib/rules';
import { fieldByName, useMetaT } from '../hooks/use-meta';
import { FieldInput } from './field-input';
import { useZone, Zone } from './zone';
import { zoneName } from '../../lib/zones';
import type { FormZoneProps } from '../../plugin-contract';
// the reference fields' widgets, the refs picker among them (registered by their modules: ./field-widgets)
import './refs-input';
import { knownRefLabels } from './ref-select';

export interface MetaFormProps {
  resource: ResourceDef;
  fields: FieldDef[];
  mode: FormMode;
  formProps: FormProps;
  /** the row being edited (ref labels, read-only values) */
  record?: Record<string, unknown>;
  disabled?: boolean;
  /** ref pickers' options given by the page (metadata form.defaultsFrom choices), per field */
  choices?: Record<string, Array<{ value: string | number; label: string }>>;
  /** labels of ref values the page set (a defaulted warehouse's name), per field */
  knownLabels?: Record<string, Record<string, string>>;
}

/** Suffix of the password-confirmation item; never sent (only declared fields are). */
export const CONFIRM_SUFFIX = '__confirm';

/** Create/edit form of a resource: groups as sections, grid spans, typed inputs, SPEC §5 rules. */
export const MetaForm: FC<MetaFormProps> = ({ resource, fields, mode, formProps, record, disabled, choices, knownLabels }) => {
  const { t, fieldLabel, groupTitle } = useMetaT();
  const groups = useMemo(() => groupFields(fields), [fields]);
  // pickers mark the rows another record of this resource already holds (ref-select.tsx)
  const owner = useMemo(() => ({ resource: resource.name, id: record?.id }), [resource.name, record?.id]);
  const cross = useMemo(
    () =>
      compareRules(
        resource.rules,
        (name) => {
          const f = fieldByName(resource, name);
          return f ? fieldLabel(f) : name;
        },
        t,
      ),
    [resource, fieldLabel, t],
  );

  const item = (f: FieldDef) => {
    const label = fieldLabel(f);
    const extra = cross[f.name];
    const help = typeof f.form === 'object' && f.form.help ? t(f.form.help) : undefined;
    const span = fieldSpan(f);
    const nodes = [
      <Col key={f.name} xs={24} md={span}>
        <Form.Item
          name={f.name}
          label={label}
          rules={[...fieldRules(f, label, mode, t), ...(extra?.rules ?? [])]}
          dependencies={extra?.dependencies}
          validateFirst
          extra={help}
          required={f.required && !(mode === 'edit' && (f.writeOnly || f.type === 'password'))}
        >
          <FieldInput
            field={f}
            resource={resource.name}
            mode={mode}
            disabled={disabled || f.readOnly}
            knownLabels={knownLabels?.[f.name] ? { ...knownLabels[f.name], ...knownRefLabels(f, record) } : knownRefLabels(f, record)}
            owner={owner}
            choices={choices?.[f.name]}
          />
        </Form.Item>
      </Col>,
    ];
    if (f.type === 'password') {
      const confirmLabel = t('meta.confirmField', { name: label });
      nodes.push(
        <Col key={f.name + CONFIRM_SUFFIX} xs={24} md={span}>
          <Form.Item
            name={f.name + CONFIRM_SUFFIX}
            label={confirmLabel}
            dependencies={[f.name]}
            rules={confirmRules(f.name, confirmLabel, t)}
            required={f.required && mode === 'create'}
          >
            <FieldInput field={f} resource={resource.name} mode={mode} disabled={disabled} />
          </Form.Item>
        </Col>,
      );
    }
    return nodes;
  };

  return (
    <Form {...formProps} layout="vertical" scrollToFirstError data-testid="meta-form" disabled={disabled}>
      {groups.length === 1 ? (
        <Row gutter={16}>{groups[0].fields.flatMap(item)}</Row>
      ) : (
        groups.map((g) => (
          <Card key={g.key} type="inner" size="small" title={groupTitle(g.key)} style={{ marginBottom: 16 }}>
            <Row gutter={16}>{g.fields.flatMap(item)}</Row>
          </Card>
        ))
      )}
      <FormZone resource={resource} mode={mode} />
    </Form>
  );
};

/** `<resource>.form.after`: plugin components below the fields, given the form (inside it, so they may set values). */
const FormZone: FC<{ resource: ResourceDef; mode: FormMode }> = ({ resource, mode }) => {
  const form = Form.useFormInstance();
  const name = zoneName(resource.name, 'form.after');
  const components = useZone<FormZoneProps>(name);
  return <Zone name={name} components={components} props={{ resource, form, mode }} wrap={(c) => <div style={{ marginBottom: 16 }}>{c}</div>} />;
};
