import { Create, Edit, useForm } from '@refinedev/antd';
import { Alert, App, Skeleton } from 'antd';
import { useMemo, type FC } from 'react';
import { useParams } from 'react-router';
import { isDocument, resourceLabelKey, type ResourceDef } from '@rti/metadata/browser';
import { fieldOfMessage, formFields, type FormMode } from '../lib/fields';
import { fromFormValues, toFormValues } from '../lib/form-values';
import { editForbidden } from '../lib/status-rules';
import { routeId } from '../lib/resource-calls';
import { useMetaT } from '../hooks/use-meta';
import { MetaForm } from '../components/meta-form';
import { ChildrenSections } from '../components/children-section';
import { DocumentFormPage } from './document-form-page';
import { useReturnToList } from '../lib/list-return';
import { useFormDefaults } from '../hooks/use-form-defaults';
import { saveWarning } from '../lib/save-warnings';

/** Shared body of MetaCreate and MetaEdit; a document (inline lines) edits header and lines on one page. */
export const MetaFormPage: FC<{ resource: ResourceDef; mode: FormMode }> = ({ resource, mode }) =>
  isDocument(resource) ? <DocumentFormPage resource={resource} mode={mode} /> : <RecordFormPage resource={resource} mode={mode} />;

const RecordFormPage: FC<{ resource: ResourceDef; mode: FormMode }> = ({ resource, mode }) => {
  const { t, fieldLabel } = useMetaT();
  const params = useParams();
  const id = routeId(params.id);
  const fields = useMemo(() => formFields(resource, mode), [resource, mode]);
  const label = t(resourceLabelKey(resource));

  const back = useReturnToList(resource, mode);
  const { formProps, saveButtonProps, query, onFinish, formLoading, form } = useForm({
    resource: resource.name,
    // the API names the offending field in its message: show it under that input as well
    onMutationError: (error) => {
      const field = fieldOfMessage(fields, fieldLabel, error?.message);
      if (field) form.setFields([{ name: field.name, errors: [error.message] }]);
    },
    action: mode,
    id: mode === 'edit' ? id : undefined,
    // back to the list as it was left (filters, page), the saved row highlighted, the create tab closed
    redirect: false,
    onMutationSuccess: (data) => back(mode === 'create' ? (data?.data as { id?: unknown } | undefined)?.id : id),
    successNotification: () => ({ type: 'success', message: t(mode === 'create' ? 'meta.created' : 'meta.updated') }),
    // a refusal naming a field is said once, under that field (onMutationError), not also as a toast
    errorNotification: (error) =>
      fieldOfMessage(fields, fieldLabel, error?.message) ? false : { type: 'error', message: t('meta.saveFailed'), description: error?.message },
  });

  const record = query?.data?.data as Record<string, unknown> | undefined;
  const initialValues = useMemo(() => toFormValues(fields, record, mode), [fields, record, mode]);
  const forbidden = mode === 'edit' ? editForbidden(resource, record) : undefined;
  const defaults = useFormDefaults(resource, fields, form, mode);
  const { modal } = App.useApp();

  const props = {
    ...formProps,
    initialValues,
    // Refine watches changes too (unsaved-changes warning): both hear each change
    onValuesChange: (changed: Record<string, unknown>, all: Record<string, unknown>) => {
      formProps.onValuesChange?.(changed, all);
      defaults.onValuesChange(changed);
    },
    onFinish: async (values: Record<string, unknown>) => {
      const out = fromFormValues(fields, values, mode) as Record<string, unknown>;
      // valid but almost certainly not meant (a user who could open nothing): asked before saving
      const warning = saveWarning(resource, { ...record, ...out });
      if (warning) {
        const go = await modal.confirm({
          title: t('meta.warning.title'),
          content: t(warning),
          okText: t('meta.warning.saveAnyway'),
          cancelText: t('meta.cancel'),
          okButtonProps: { 'data-testid': 'meta-save-anyway' } as never,
        });
        if (!go) return undefined;
      }
      return onFinish(out as never).catch((e: unknown) => e);
    },
  };
  const save = { ...saveButtonProps, disabled: saveButtonProps.disabled || Boolean(forbidden), 'data-testid': 'meta-save' };
  const body = (
    <>
      {forbidden && <Alert type="warning" showIcon message={t(forbidden.message)} style={{ marginBottom: 16 }} />}
      {/* an edit form appears with its record: typing into it before the record arrived was overwritten when it did */}
      {mode === 'edit' && !record && formLoading ? (
        <Skeleton active data-testid="meta-form-loading" />
      ) : (
        <MetaForm
          resource={resource}
          fields={fields}
          mode={mode}
          formProps={props as never}
          record={record}
          disabled={Boolean(forbidden)}
          choices={defaults.choices}
          knownLabels={defaults.labels}
        />
      )}
      {mode === 'edit' && record && id !== undefined && resource.children?.length ? (
        <ChildrenSections parent={resource} parentId={id} readOnly={Boolean(forbidden)} />
      ) : null}
    </>
  );

  return mode === 'create' ? (
    <Create breadcrumb={false} resource={resource.name} title={t('meta.createTitle', { resource: label })} saveButtonProps={save} isLoading={formLoading}>
      {body}
    </Create>
  ) : (
    <Edit
      breadcrumb={false}
      resource={resource.name}
      recordItemId={id}
      title={t('meta.editTitle', { resource: label })}
      saveButtonProps={save}
      isLoading={formLoading}
      canDelete={false}
    >
      {body}
    </Edit>
  );
};
