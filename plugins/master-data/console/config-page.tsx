import { useEffect, useMemo, useState } from 'react';
import { App, Button, Card, Form, Spin } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { request, useCan } from '@rti/console/plugin-api';
import { useMetadata } from '@rti/console/plugin-api';
import { MetaForm } from '@rti/console/plugin-meta';
import { formFields } from '@rti/console/plugin-meta';
import { fromFormValues, toFormValues } from '@rti/console/plugin-meta';

/** The organisation's settings: one form over the `config` resource's fields, saved with /config/update. */
export default function ConfigPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const resource = useMetadata().resources.config;
  const fields = useMemo(() => formFields(resource, 'edit'), [resource]);
  const [form] = Form.useForm();
  const [record, setRecord] = useState<Record<string, unknown>>();
  const [busy, setBusy] = useState(true);
  // without the update code the settings are shown read-only and the save button is removed
  const canSave = useCan({ call: '/config/update' });

  useEffect(() => {
    request<Record<string, unknown>>('/config')
      .then((row) => {
        setRecord(row);
        form.setFieldsValue(toFormValues(fields, row, 'edit'));
      })
      .catch((e: unknown) => void message.error(e instanceof Error ? e.message : String(e)))
      .finally(() => setBusy(false));
  }, [fields, form, message]);

  const save = async (values: Record<string, unknown>) => {
    setBusy(true);
    try {
      setRecord(await request<Record<string, unknown>>('/config/update', fromFormValues(fields, values, 'edit')));
      void message.success(t('masterData.configSaved'));
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      title={t('menu.config')}
      data-testid="config-page"
      extra={
        canSave && (
          <Button type="primary" icon={<SaveOutlined />} onClick={() => form.submit()} loading={busy} data-testid="config-save">
            {t('masterData.save')}
          </Button>
        )
      }
    >
      <Spin spinning={busy}>
        <MetaForm
          resource={resource}
          fields={fields}
          mode="edit"
          record={record}
          formProps={{ form, layout: 'vertical', onFinish: (values) => void save(values) /* save() reports its own failure */ }}
          disabled={!canSave}
        />
      </Spin>
    </Card>
  );
}
