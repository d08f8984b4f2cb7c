import { Create, Edit } from '@refinedev/antd';
import { useInvalidate, useShow } from '@refinedev/core';
import { Alert, App, Form, Spin } from 'antd';
import { useEffect, useMemo, useState, type FC } from 'react';
import { useParams } from 'react-router';
import { documentSavePath, inlineChildren, resourceApiPath, resourceLabelKey, type ChildrenDef, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { fieldOfMessage, formFields, type FormMode } from '../lib/fields';
import { fromFormValues, toFormValues } from '../lib/form-values';
import { editForbidden } from '../lib/status-rules';
import { routeId } from '../lib/resource-calls';
import { lineFields, linesBody, linesEditable, toEditorLines, type EditorLine } from '../lib/document-lines';
import { useMetaT, useMetadata } from '../hooks/use-meta';
import { MetaForm } from '../components/meta-form';
import { DocumentLines } from '../components/document-lines';
import { useReturnToList } from '../lib/list-return';
import { useFormDefaults } from '../hooks/use-form-defaults';

/** Lines asked per page when an edit screen loads a document (the list call's largest page). */
const LOAD_PAGE = 1000;

/**
 * Create and edit screen of a document (metadata `children` marked inline): the header's form
 * and its lines on one page, saved together by one call (`<prefix>/save`) in one transaction.
 * The server numbers the document, checks every line and computes the roll-ups; a refusal
 * names the line it concerns.
 */
export const DocumentFormPage: FC<{ resource: ResourceDef; mode: FormMode }> = ({ resource, mode }) => {
  const { t, fieldLabel } = useMetaT();
  const { resources } = useMetadata();
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const params = useParams();
  const id = routeId(params.id);
  const [form] = Form.useForm();
  const fields = useMemo(() => formFields(resource, mode), [resource, mode]);
  const children = useMemo(() => inlineChildren(resource).filter((c) => resources[c.resource]), [resource, resources]);
  const fieldsOf = useMemo(() => new Map(children.map((c) => [c.resource, lineFields(c, formFields(resources[c.resource], 'create'))])), [children, resources]);
  const label = t(resourceLabelKey(resource));

  const { query } = useShow({ resource: resource.name, id, queryOptions: { enabled: mode === 'edit' && id !== undefined } });
  const record = mode === 'edit' ? (query.data?.data as Record<string, unknown> | undefined) : undefined;
  const initialValues = useMemo(() => toFormValues(fields, record, mode), [fields, record, mode]);
  // the create form's defaults and picker choices from the resource's own call (form.defaultsFrom)
  const defaults = useFormDefaults(resource, fields, form, mode);
  const sourceField = resource.source ? fields.find((f) => f.name === resource.source!.field) : undefined;
  const sourceLabel = sourceField ? fieldLabel(sourceField) : '';
  useEffect(() => {
    // the record arrives after the form mounted
    if (record) form.setFieldsValue(initialValues as never);
  }, [record, initialValues, form]);

  const [lines, setLines] = useState<Record<string, EditorLine[]>>({});
  // only changed kinds of line are sent on edit (a 5,000-line document need not travel back)
  const [dirty, setDirty] = useState<Set<string>>(new Set());
  const [loadingLines, setLoadingLines] = useState(mode === 'edit');
  useEffect(() => {
    if (mode !== 'edit' || id === undefined) return;
    let cancelled = false;
    const load = async (c: ChildrenDef) => {
      const child = resources[c.resource];
      const rows: Array<Record<string, unknown>> = [];
      for (let page = 1; ; page++) {
        const got = await request<{ list: Array<Record<string, unknown>>; total: number }>(resourceApiPath(child, 'list'), {
          [c.foreignKey]: id,
          page,
          limit: LOAD_PAGE,
        });
        rows.push(...got.list);
        if (rows.length >= got.total || got.list.length < LOAD_PAGE) break;
      }
      return [c.resource, toEditorLines(fieldsOf.get(c.resource)!, rows)] as const;
    };
    Promise.all(children.map(load))
      .then((loaded) => !cancelled && setLines(Object.fromEntries(loaded)))
      .catch((e: unknown) => void message.error(e instanceof Error ? e.message : String(e)))
      .finally(() => !cancelled && setLoadingLines(false));
    return () => {
      cancelled = true;
    };
  }, [mode, id, children, resources, fieldsOf, message]);

  const forbidden = mode === 'edit' ? editForbidden(resource, record) : undefined;
  const [saving, setSaving] = useState(false);
  const back = useReturnToList(resource, mode);
  const save = async () => {
    const values = (await form.validateFields()) as Record<string, unknown>;
    const body: Record<string, unknown> = { ...fromFormValues(fields, values, mode), ...(mode === 'edit' ? { id } : {}) };
    body.lines = Object.fromEntries(
      children
        .filter((c) => mode === 'create' || dirty.has(c.resource))
        .map((c) => [c.resource, linesBody(fieldsOf.get(c.resource)!, lines[c.resource] ?? [])]),
    );
    setSaving(true);
    try {
      const saved = await request<{ id: number }>(documentSavePath(resource), body);
      void message.success(t(mode === 'create' ? 'meta.created' : 'meta.updated'));
      await invalidate({ resource: resource.name, invalidates: ['list', 'detail'], id: saved.id });
      for (const c of children) await invalidate({ resource: c.resource, invalidates: ['list'] });
      back(saved.id);
    } catch (e) {
      const text = e instanceof Error ? e.message : String(e);
      // a header field's refusal shows under its input too; a line's names its line number
      const field = fieldOfMessage(fields, fieldLabel, text);
      // said once: under the field it names, else as a toast
      if (field) form.setFields([{ name: field.name, errors: [text] }]);
      else void message.error(text);
    } finally {
      setSaving(false);
    }
  };

  const saveButtonProps = {
    onClick: () => void save().catch(() => undefined),
    loading: saving,
    disabled: Boolean(forbidden) || loadingLines,
    'data-testid': 'meta-save',
  };
  const body = (
    <div data-testid="document-form">
      {forbidden && <Alert type="warning" showIcon message={t(forbidden.message)} style={{ marginBottom: 16 }} />}
      <MetaForm
        resource={resource}
        fields={fields}
        mode={mode}
        formProps={{ form, initialValues, onValuesChange: defaults.onValuesChange }}
        record={record}
        disabled={Boolean(forbidden)}
        choices={defaults.choices}
        knownLabels={defaults.labels}
      />
      {/* a document made from another (metadata `source`): the source's lines arrive on save */}
      {mode === 'create' && defaults.sourceLines !== undefined && (
        <Alert
          type="info"
          showIcon
          style={{ marginTop: 8 }}
          message={t('meta.linesFromSource', { count: defaults.sourceLines, source: sourceLabel })}
          data-testid="document-source-lines"
        />
      )}
      {loadingLines ? (
        <Spin style={{ display: 'block', marginTop: 24 }} />
      ) : (
        children.map((c) => (
          <DocumentLines
            key={c.resource}
            parent={resource}
            def={c}
            child={resources[c.resource]}
            fields={fieldsOf.get(c.resource)!}
            lines={lines[c.resource] ?? []}
            onChange={(next) => {
              setLines((all) => ({ ...all, [c.resource]: next }));
              setDirty((d) => new Set(d).add(c.resource));
            }}
            readOnly={Boolean(forbidden) || !linesEditable(c, record)}
          />
        ))
      )}
    </div>
  );

  return mode === 'create' ? (
    <Create breadcrumb={false} resource={resource.name} title={t('meta.createTitle', { resource: label })} saveButtonProps={saveButtonProps}>
      {body}
    </Create>
  ) : (
    <Edit
      breadcrumb={false}
      resource={resource.name}
      recordItemId={id}
      title={t('meta.editTitle', { resource: label })}
      saveButtonProps={saveButtonProps}
      isLoading={query.isLoading}
      canDelete={false}
    >
      {body}
    </Edit>
  );
};
